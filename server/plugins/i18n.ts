/**
 * Server-side translations: the same locales/*.json the browser uses, through i18next, so answers carry
 * `message` already in the request's language. Language: X-Locale header, then the `lang` cookie, then
 * Accept-Language, then Spanish.
 */
import fs from 'node:fs';
import fp from 'fastify-plugin';
import i18next, { type TFunction } from 'i18next';
import { LANGUAGE_COOKIE, LANGUAGES, PRIMARY_LANGUAGE, toLanguage, type Language, FALLBACK_LANGUAGE } from '#contract/languages.ts';

export type Translations = Record<string, unknown>;

export function loadLocales(): Record<Language, Translations> {
  const out = {} as Record<Language, Translations>;
  for (const lng of LANGUAGES) {
    out[lng] = JSON.parse(fs.readFileSync(new URL(`../../locales/${lng}.json`, import.meta.url), 'utf8')) as Translations;
  }
  return out;
}

export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const lng = toLanguage(tag);
    if (lng) return lng;
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    locales: Record<Language, Translations>;
    /** Translations in a given language (e-mails go out in the recipient's language, not the request's). */
    tFor: (lng: string) => TFunction;
  }
  interface FastifyRequest {
    lang: Language;
    t: TFunction;
  }
}

export default fp(async (app) => {
  const locales = loadLocales();
  const instance = i18next.createInstance();
  await instance.init({
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: locales[l] }])),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  } as Parameters<typeof instance.init>[0]);
  const fixed = Object.fromEntries(LANGUAGES.map((l) => [l, instance.getFixedT(l)])) as Record<Language, TFunction>;

  app.decorate('locales', locales);
  app.decorate('tFor', (lng: string) => fixed[toLanguage(lng) ?? PRIMARY_LANGUAGE]);
  app.decorateRequest('lang', PRIMARY_LANGUAGE);
  app.decorateRequest('t', null as unknown as TFunction);
  app.addHook('onRequest', async (req) => {
    const header = req.headers['x-locale'];
    req.lang =
      toLanguage(Array.isArray(header) ? header[0] : header) ??
      toLanguage(req.cookies[LANGUAGE_COOKIE]) ??
      languageFromAcceptLanguage(req.headers['accept-language']) ??
      PRIMARY_LANGUAGE;
    req.t = fixed[req.lang];
  });
});
