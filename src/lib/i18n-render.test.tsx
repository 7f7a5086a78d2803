import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { I18nProvider, useTranslation } from '#src/lib/i18n-react.tsx';
import { afterEach, expect, it, vi } from 'vitest';
import { createI18n } from './i18n.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'lang=; max-age=0; path=/';
});

function Label({ k }: { k: string }) {
  const { t } = useTranslation();
  return <p>{t(k)}</p>;
}

it('a component showing a key missing in its language re-renders in English once the fallback has loaded', async () => {
  const bundles: Record<string, Record<string, string>> = {
    de: { hello: 'Hallo' },
    en: { hello: 'Hello', onlyEnglish: 'Only in English' },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => Promise.resolve(new Response(JSON.stringify(bundles[url.split('/').pop()!] ?? {}), { status: 200 }))),
  );
  window.history.replaceState(null, '', '/de');
  const i18n = createI18n();
  render(
    <I18nProvider i18n={i18n}>
      <Suspense fallback={null}>
        <Label k="hello" />
        <Label k="onlyEnglish" />
      </Suspense>
    </I18nProvider>,
  );
  expect(await screen.findByText('Hallo')).toBeTruthy();
  // React may subscribe the component after the load (it holds back a resolved Suspense boundary): it reads the
  // translations as they are then.
  expect(await screen.findByText('Only in English', undefined, { timeout: 3000 })).toBeTruthy();
  expect(screen.queryByText('onlyEnglish')).toBeNull();
});
