import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationList } from '#contract/notifications.ts';
import { renderInSpanish } from '#tests/render-es.tsx';
import { NotificationsPanel } from './notifications-panel.tsx';

function note(id: number, over: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'saved_search',
    type: 'info',
    message: `Aviso ${id}`,
    description: null,
    placement: 'top-right',
    read: false,
    read_at: null,
    created_at: '2026-11-29T08:00:00.000Z',
    data: {},
    ...over,
  };
}

const list = (data: Notification[]): NotificationList => ({
  data,
  meta: {
    current_page: 1,
    last_page: 1,
    per_page: 20,
    total: data.length,
    from: 1,
    to: data.length,
    unread: data.filter((n) => !n.read).length,
  },
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.restoreAllMocks());

describe('NotificationsPanel', () => {
  it('lists the newest, unread ones marked in words, with what each is about linked', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(list([note(1, { data: { link: '/?search=rubia&new=5' } }), note(2, { read: true, read_at: '2026-11-29T09:00:00.000Z' })])),
    );
    renderInSpanish(<NotificationsPanel />, '/es/dashboard');
    const panel = await screen.findByTestId('notifications-panel');
    await screen.findByText('Aviso 1');
    expect(within(panel).getByRole('heading', { level: 2 }).textContent).toBe('Tus notificaciones(1 sin leer)');
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: 'Aviso 1' }).getAttribute('href')).toBe('/es?search=rubia&new=5');
    expect(within(items[0]!).getByText('Sin leer')).toBeTruthy();
    expect(within(items[1]!).queryByText('Sin leer')).toBeNull();
    expect(within(items[1]!).queryByRole('link')).toBeNull();
  });

  it('"mark all as read" asks the server and clears the marks at once', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input) =>
        Promise.resolve(
          (input as string).includes('read-all') ? json({ type: 'success', data: { unread: 0 } }) : json(list([note(1), note(2)])),
        ),
      );
    renderInSpanish(<NotificationsPanel />, '/es/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Marcar todas como leídas' }));
    await waitFor(() => expect(screen.queryAllByText('Sin leer')).toHaveLength(0));
    expect(fetchSpy.mock.calls.some(([input, init]) => (input as string).includes('read-all') && init?.method === 'POST')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Marcar todas como leídas' })).toBeNull();
  });

  it('says so when there is nothing, and when it cannot load', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(list([])));
    const { unmount } = renderInSpanish(<NotificationsPanel />, '/es/dashboard');
    expect(await screen.findByText(/No tienes notificaciones/)).toBeTruthy();
    unmount();
    vi.restoreAllMocks();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ type: 'error' }, 500));
    renderInSpanish(<NotificationsPanel />, '/es/dashboard');
    expect(await screen.findByText('No se pudieron cargar las notificaciones.')).toBeTruthy();
  });
});
