import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#contract/languages.ts';
import { createI18nInstance, type Resources } from './i18n-core.ts';

const locales = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, JSON.parse(fs.readFileSync(path.resolve(process.cwd(), `locales/${lng}.json`), 'utf8')) as Resources]),
);

function leaves(node: Resources, prefix = ''): string[] {
  return Object.entries(node).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`)));
}

/** The same key read by i18next (what the server still uses) and by our module, for every form the locale files use. */
describe('i18n-core reads the locale files as i18next does', () => {
  const reference = i18next.createInstance();
  void reference.init({
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: locales[l] }])),
    lng: 'es',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  } as Parameters<typeof reference.init>[0]);

  for (const lng of LANGUAGES) {
    it(`${lng}: every key, with every count the plurals distinguish and every placeholder filled or missing`, () => {
      const ours = createI18nInstance({ lng, resources: { [lng]: locales[lng]! } });
      const fixed = reference.getFixedT(lng);
      const keys = new Set(leaves(locales[lng]!).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')));
      const placeholders = new Set([...JSON.stringify(locales[lng]).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!));
      const values = Object.fromEntries([...placeholders].filter((p) => p !== 'count').map((p) => [p, `«${p}»`]));
      let compared = 0;
      for (const key of keys) {
        for (const options of [undefined, values, ...[0, 1, 2, 5, 1_000_000].map((count) => ({ ...values, count }))]) {
          expect(ours.t(key, options), `${lng} ${key} ${JSON.stringify(options)}`).toBe(fixed(key, options as never));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(1000);
    }, 60_000);
  }

  it('context, a list of keys, a default value and a missing key', () => {
    const resources: Resources = {
      a: { intro: 'Hola', intro_model: 'Hola, modelo', one_other: 'x', n_one: '{{count}} uno', n_other: '{{count}} más' },
    };
    const ours = createI18nInstance({ lng: 'es', resources: { es: resources } });
    const theirs = i18next.createInstance();
    void theirs.init({ lng: 'es', resources: { es: { translation: resources } }, initAsync: false, showSupportNotice: false } as Parameters<
      typeof theirs.init
    >[0]);
    const cases: Array<[string | string[], Record<string, unknown>?]> = [
      ['a.intro', { context: 'model' }],
      ['a.intro', { context: 'client' }],
      [['a.missing', 'a.intro']],
      [['a.missing', 'a.gone']],
      ['a.missing', { defaultValue: 'por defecto {{x}}', x: 1 }],
      ['a.n', { count: 1 }],
      ['a.n', { count: 3 }],
      ['a.n', { count: 0 }],
      ['a.intro', { count: 2 }],
    ];
    for (const [key, options] of cases)
      expect(ours.t(key, options), JSON.stringify([key, options])).toBe(theirs.t(key as string, options as never));
  });
});
