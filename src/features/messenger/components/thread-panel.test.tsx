import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { MemoryRouter } from '#src/lib/router.tsx';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '#contract/support-chat.ts';
import type { useThread } from '../lib/use-thread.ts';

vi.mock('#src/realtime/hooks.ts', () => ({ useConnectionState: () => 'connected' }));
// The autosizing textarea listens for web fonts loading; jsdom has no document.fonts.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener() {}, removeEventListener() {} } });

const { ThreadPanel } = await import('./thread-panel.tsx');

const i18n = createI18nInstance({
  lng: 'es',
  resources: { es: { messenger: { composer: { label: 'Mensaje', send: 'Enviar' } }, common: { loading: 'Cargando' } } },
});

type ThreadState = ReturnType<typeof useThread>;
const me = { id: 1, name: 'Noel', isStaff: false };

function threadState(status: ThreadState['status'], messages: Message[] = []): ThreadState {
  return {
    status,
    thread: { messages, hasMoreBefore: false },
    pending: [],
    loadingOlder: false,
    typers: [],
    arrived: null,
    offlineCopy: false,
    loadOlder: async () => undefined,
    markSeen: async () => undefined,
    send: async () => undefined,
    discard: () => undefined,
    retryLoad: () => undefined,
    notifyTyping: () => undefined,
  } as unknown as ThreadState;
}

const wrap = (children: ReactNode) => (
  <MantineProvider>
    <I18nProvider i18n={i18n}>
      <MemoryRouter>{children}</MemoryRouter>
    </I18nProvider>
  </MantineProvider>
);

describe('ThreadPanel', () => {
  it('keeps the composer and its focus while the thread loads (the first message opens the conversation)', () => {
    const onSend = vi.fn();
    const view = render(wrap(<ThreadPanel state={threadState('ready')} me={me} senderLabel={() => ''} onSend={onSend} />));
    const box = screen.getByRole('textbox', { name: 'Mensaje' });
    act(() => box.focus());
    fireEvent.change(box, { target: { value: 'Hola' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('Hola');

    // Sending the first message opened the conversation: its messages load, then show.
    view.rerender(wrap(<ThreadPanel state={threadState('loading')} me={me} senderLabel={() => ''} onSend={onSend} />));
    expect(screen.getByRole('textbox', { name: 'Mensaje' })).toBe(box);
    expect(document.activeElement).toBe(box);
    view.rerender(wrap(<ThreadPanel state={threadState('ready')} me={me} senderLabel={() => ''} onSend={onSend} />));
    expect(screen.getByRole('textbox', { name: 'Mensaje' })).toBe(box);
    expect(document.activeElement).toBe(box);
  });

  it('offers to load again instead of the composer when the thread cannot be loaded', () => {
    render(wrap(<ThreadPanel state={threadState('error')} me={me} senderLabel={() => ''} onSend={() => undefined} />));
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
