/**
 * Component tests in Spanish, as a user sees the screen: the shipped es translations in their own i18next instance,
 * Mantine, TanStack Query (no retries) and a memory router around the component.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { MemoryRouter } from '#src/lib/router.tsx';

export type Dict = { [k: string]: string | Dict };

export const esMessages = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/es.json'), 'utf8')) as Dict;

// Mantine's autosize textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });
}

const i18n = createI18nInstance({ lng: 'es', resources: { es: esMessages } });

/** `route`: where the memory router starts (screens that read the language or an id from the URL need one). */
export function renderInSpanish(ui: ReactNode, route?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter {...(route ? { initialEntries: [route] } : {})}>{ui}</MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>,
  );
}
