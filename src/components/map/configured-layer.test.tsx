/**
 * The configured map source as the browser learns it (GET /api/config `map`): none by default; the last one named is
 * kept so that offline (the question fails) the tiles the service worker kept are used again.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const apiGet = vi.fn<(path: string) => Promise<unknown>>();
vi.mock('#src/lib/api-client.ts', () => ({ apiGet: (path: string) => apiGet(path) }));
const { MAP_SOURCE_STORAGE_KEY, useMapConfig } = await import('./configured-layer.ts');

const base = { app_name: 'Vitrina', languages: ['es'], realtime: null };
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
);

afterEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
});

describe('useMapConfig', () => {
  it('is null when the server names no source (the embedded base map only)', async () => {
    apiGet.mockResolvedValue(base);
    const { result } = renderHook(() => useMapConfig(), { wrapper });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toBeNull());
    expect(localStorage.getItem(MAP_SOURCE_STORAGE_KEY)).toBeNull();
  });

  it('gives the configured tiles and keeps them for offline use', async () => {
    apiGet.mockResolvedValue({ ...base, map: { tiles_url: 'https://t.example.com/{z}/{x}/{y}.png', attribution: '© T' } });
    const { result } = renderHook(() => useMapConfig(), { wrapper });
    await waitFor(() =>
      expect(result.current).toEqual({ tilesUrl: 'https://t.example.com/{z}/{x}/{y}.png', styleUrl: undefined, attribution: '© T' }),
    );
    expect(JSON.parse(localStorage.getItem(MAP_SOURCE_STORAGE_KEY)!)).toMatchObject({ tilesUrl: 'https://t.example.com/{z}/{x}/{y}.png' });
  });

  it('offline, uses the source named last; with none kept, the embedded map', async () => {
    apiGet.mockRejectedValue(new TypeError('Failed to fetch'));
    const first = renderHook(() => useMapConfig(), { wrapper });
    await waitFor(() => expect(first.result.current).toBeNull());

    localStorage.setItem(MAP_SOURCE_STORAGE_KEY, JSON.stringify({ styleUrl: 'https://m.example.com/style.json' }));
    const second = renderHook(() => useMapConfig(), { wrapper });
    await waitFor(() => expect(second.result.current).toEqual({ styleUrl: 'https://m.example.com/style.json' }));
  });

  it('forgets a kept source once the server names none', async () => {
    localStorage.setItem(MAP_SOURCE_STORAGE_KEY, JSON.stringify({ tilesUrl: 'https://old.example.com/{z}/{x}/{y}.png' }));
    apiGet.mockResolvedValue(base);
    const { result } = renderHook(() => useMapConfig(), { wrapper });
    await waitFor(() => expect(result.current).toBeNull());
    expect(localStorage.getItem(MAP_SOURCE_STORAGE_KEY)).toBeNull();
  });
});
