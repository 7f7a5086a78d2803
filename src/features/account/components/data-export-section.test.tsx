import fs from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { MemoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataExportState } from '#contract/data-rights.ts';
import { DataExportSection } from './data-export-section.tsx';

type Dict = { [k: string]: string | Dict };
const es = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/es.json'), 'utf8')) as Dict;
const i18n = createI18nInstance({ lng: 'es', resources: { es: es } });

const NONE: DataExportState = {
  status: 'none',
  id: null,
  created_at: null,
  completed_at: null,
  expires_at: null,
  download_url: null,
  size_bytes: null,
};
const PENDING: DataExportState = { ...NONE, status: 'pending', id: 4, created_at: '2026-01-02T10:00:00.000Z' };
const READY: DataExportState = {
  ...PENDING,
  status: 'ready',
  completed_at: '2026-01-02T10:00:05.000Z',
  expires_at: '2026-01-03T10:00:05.000Z',
  download_url: `/data-export/4/1767434405/${'a'.repeat(64)}.zip`,
  size_bytes: 3 * 1024 * 1024,
};

/** A fetch that answers GET with the states in turn (the last one repeating) and POST with `post`. */
function serve(states: DataExportState[], post: { status: number; body: unknown }) {
  let i = 0;
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url}`);
      if (url.startsWith('/sanctum/')) return Promise.resolve(new Response(null, { status: 204 }));
      if (method === 'POST') return Promise.resolve(new Response(JSON.stringify(post.body), { status: post.status }));
      const state = states[Math.min(i++, states.length - 1)];
      return Promise.resolve(new Response(JSON.stringify(state), { status: 200 }));
    }),
  );
  return calls;
}

function wrap() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter initialEntries={['/es/profile']}>
            <Routes>
              <Route path="/:lng/profile" element={<DataExportSection />} />
            </Routes>
          </MemoryRouter>
        </I18nProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const t = (key: string) => {
  let node: string | Dict = es;
  for (const part of key.split('.')) node = (node as Dict)[part]!;
  return node as string;
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DataExportSection', () => {
  it('asks for the archive, shows it being prepared, then the download link and its expiry', async () => {
    const calls = serve([NONE, PENDING, READY], {
      status: 202,
      body: { channel: 'notification', type: 'info', message: 'ok', data: PENDING },
    });
    wrap();
    const region = screen.getByRole('region', { name: t('account.profile.dataExport.heading') });
    fireEvent.click(await within(region).findByRole('button', { name: t('account.profile.dataExport.request') }));
    const status = within(region).getByRole('status');
    await waitFor(() => expect(status.textContent).toContain(t('account.profile.dataExport.pending')));
    expect(calls).toContain('POST /api/user/data-export');
    // The section polls while pending, until the archive is ready.
    await waitFor(() => expect(status.textContent).toContain(t('account.profile.dataExport.ready')), { timeout: 6000 });
    const link = within(region).getByRole('link', { name: /Descargar el archivo \(3 MB\)/ });
    expect(link.getAttribute('href')).toBe(READY.download_url);
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(region).getByText(/El enlace funciona hasta el/)).toBeTruthy();
  });

  it('a failed build says so and offers to try again', async () => {
    serve([{ ...PENDING, status: 'failed' }], { status: 202, body: { data: PENDING } });
    wrap();
    const region = screen.getByRole('region', { name: t('account.profile.dataExport.heading') });
    await waitFor(() => expect(within(region).getByRole('status').textContent).toContain(t('account.profile.dataExport.failed')));
    expect(within(region).getByRole('button', { name: t('account.profile.dataExport.retry') })).toBeTruthy();
    expect(within(region).queryByRole('link')).toBeNull();
  });
});
