import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineError } from '#src/lib/api-client.ts';
import { relativeTime, SavedCopyNote } from './saved-copy.tsx';

const i18n = createI18nInstance({ lng: 'es', resources: { es: { pwa: { savedCopy: 'Copia guardada:' } } } });

const HOUR = 3_600_000;

function show(props: Parameters<typeof SavedCopyNote>[0]) {
  return render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <SavedCopyNote {...props} />
      </I18nProvider>
    </MantineProvider>,
  );
}

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('SavedCopyNote', () => {
  it('says nothing online when the answer is fresh', () => {
    show({ updatedAt: Date.now() - 2 * HOUR });
    expect(screen.queryByTestId('saved-copy')).toBeNull();
  });

  it('marks the answer as a saved copy with when it was fetched, once offline', () => {
    const fetched = Date.now() - 2 * HOUR;
    show({ updatedAt: fetched });
    act(() => setOnline(false));
    expect(screen.getByTestId('saved-copy').textContent).toBe('Copia guardada: hace 2 horas');
    expect(screen.getByTestId('saved-copy').querySelector('time')?.getAttribute('datetime')).toBe(new Date(fetched).toISOString());
  });

  it('marks it too when the last refresh found no network, even if the browser says it is online', () => {
    show({ updatedAt: Date.now() - 3 * 60_000, error: new OfflineError() });
    expect(screen.getByTestId('saved-copy').textContent).toBe('Copia guardada: hace 3 minutos');
  });

  it('takes the service worker’s copy’s date when that is older than the query’s', async () => {
    const stored = Date.now() - 5 * HOUR;
    const match = vi.fn(async () => new Response('{}', { headers: { date: new Date(stored).toUTCString() } }));
    vi.stubGlobal('caches', { match });
    show({ updatedAt: Date.now(), error: new OfflineError(), url: '/api/models/7' });
    expect(await screen.findByText('hace 5 horas')).toBeTruthy();
    expect(match).toHaveBeenCalledWith('/api/models/7');
  });
});

describe('relativeTime', () => {
  it('words the time in the page’s language', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(relativeTime(now - 30_000, now, 'es')).toBe('hace 30 segundos');
    expect(relativeTime(now - 26 * HOUR, now, 'en')).toBe('yesterday');
    expect(relativeTime(now - 3 * 24 * HOUR, now, 'de')).toBe('vor 3 Tagen');
  });
});
