/**
 * The browser's translations (decision 0029): the part of i18next the app uses — nested keys, `{{name}}`
 * interpolation, plurals by Intl.PluralRules (`_zero`, `_one`, `_other`…), `context`, a list of keys, `defaultValue`,
 * a language loaded on demand and a fallback language loaded only when a key is missing — in about 2 KB instead of
 * i18next + react-i18next's 18 KB on every first visit (issue 27's 150 KB budget). The locale files keep i18next's
 * format, so the server (server/plugins/i18n.ts, i18next) reads the same files with the same meaning; the unit tests
 * of src/lib/i18n-core.test.ts hold this module to i18next's answers for every form the files use.
 */

/** A language's translations: nested keys (`ads.toggle.success`). */
export type Resources = { [key: string]: string | Resources };

export interface TOptions {
  /** Picks the plural form (`key_one`, `key_other`, `key_zero` for 0 when present) and fills `{{count}}`. */
  count?: number;
  /** `key_{context}` when present, else `key`. */
  context?: string;
  /** What a missing key reads as (interpolated); without it the key itself. Not a missing translation. */
  defaultValue?: string;
  [value: string]: unknown;
}

export type TFunction = (key: string | readonly string[], options?: TOptions) => string;

type Event = 'languageChanged' | 'added' | 'initialized';

export interface I18nOptions {
  /** The language to start with (its translations given in `resources`, or loaded by `load`). */
  lng?: string;
  resources?: Record<string, Resources>;
  /** Loads a language's translations; rejects when they cannot be had (the language then shows keys). */
  load?: (lng: string) => Promise<Resources>;
  /** Loaded once a key is missing in the current language, and read for missing keys from then on. */
  fallbackLng?: string;
  /** Called when the language is set (the browser remembers the visitor's choice). */
  onLanguage?: (lng: string) => void;
}

const SUFFIX_SEPARATOR = '_';

function lookup(bundle: Resources | undefined, key: string): string | undefined {
  let node: string | Resources | undefined = bundle;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `{{name}}` and `{{a.b}}` from the options; a placeholder without a value stays as written (i18next does the same). */
export function interpolate(text: string, values: TOptions | undefined): string {
  if (!values || !text.includes('{{')) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, path: string) => {
    let value: unknown = values;
    for (const part of path.split('.')) value = value == null ? undefined : (value as Record<string, unknown>)[part];
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- values are strings and numbers, as i18next takes them
    return value == null ? whole : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(lng: string, count: number): string {
  let rules = pluralRules.get(lng);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(lng.replace('_', '-'));
    } catch {
      rules = new Intl.PluralRules('en');
    }
    pluralRules.set(lng, rules);
  }
  return rules.select(count);
}

/** The keys to try for one key, most specific first, as i18next tries them. */
function candidates(key: string, lng: string, options: TOptions | undefined): string[] {
  const out: string[] = [];
  const bases = options?.context ? [`${key}${SUFFIX_SEPARATOR}${options.context}`, key] : [key];
  for (const base of bases) {
    if (typeof options?.count === 'number') {
      if (options.count === 0) out.push(`${base}${SUFFIX_SEPARATOR}zero`);
      out.push(`${base}${SUFFIX_SEPARATOR}${pluralCategory(lng, options.count)}`);
    }
    out.push(base);
  }
  return out;
}

export class I18n {
  /** The current language (set at once at start, then when a new one's translations have arrived); '' before. */
  language = '';
  isInitialized = false;
  private readonly bundles = new Map<string, Resources>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly listeners = new Map<Event, Set<(lng: string) => void>>();
  private fallbackWanted = false;
  private requested: string | undefined;
  private version = 0;
  /** Settles once the current language's translations have loaded or failed to (React waits for it: Suspense). */
  ready: Promise<void>;

  constructor(private readonly options: I18nOptions = {}) {
    for (const [lng, bundle] of Object.entries(options.resources ?? {})) this.bundles.set(lng, bundle);
    this.ready = Promise.resolve();
    if (options.lng) this.ready = this.changeLanguage(options.lng);
  }

  /** The current language once it has translations (undefined before): what the screens show. */
  get resolvedLanguage(): string | undefined {
    return this.language && this.bundles.has(this.language) ? this.language : undefined;
  }

  /** Bumped at every change a screen must show (language, translations added); React subscribes to it. */
  get changes(): number {
    return this.version;
  }

  /** True once the current language's translations have loaded or failed to load. */
  get isReady(): boolean {
    return this.isInitialized && (!this.language || !this.loading.has(this.language));
  }

  hasResourceBundle(lng: string): boolean {
    return this.bundles.has(lng);
  }

  addResourceBundle(lng: string, bundle: Resources) {
    this.bundles.set(lng, bundle);
    this.emit('added', lng);
  }

  on(event: Event, listener: (lng: string) => void) {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  off(event: Event, listener: (lng: string) => void) {
    this.listeners.get(event)?.delete(listener);
  }

  /** Calls `listener` at every change a screen must show; returns its unsubscription (useSyncExternalStore's shape). */
  subscribe = (listener: () => void): (() => void) => {
    this.on('languageChanged', listener);
    this.on('added', listener);
    return () => {
      this.off('languageChanged', listener);
      this.off('added', listener);
    };
  };

  private emit(event: Event, lng: string) {
    if (event !== 'initialized') this.version++;
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(lng);
  }

  /** Loads a language's translations once (a failure leaves it without: its keys show as they are). */
  loadLanguage(lng: string): Promise<void> {
    if (this.bundles.has(lng) || !this.options.load) return Promise.resolve();
    let pending = this.loading.get(lng);
    if (!pending) {
      pending = this.options
        .load(lng)
        .then(
          (bundle) => this.addResourceBundle(lng, bundle),
          (error: unknown) => console.warn(`translations for ${lng}:`, error),
        )
        .finally(() => this.loading.delete(lng));
      this.loading.set(lng, pending);
    }
    return pending;
  }

  /**
   * Switches to `lng` once its translations are in (at once when they are): the first language is set before, so
   * that what renders meanwhile (React waits on `ready`) knows which one is coming. The latest call wins.
   */
  changeLanguage(lng: string): Promise<void> {
    const first = !this.language;
    if (first) this.language = lng;
    this.requested = lng;
    this.options.onLanguage?.(lng);
    const apply = () => {
      if (this.requested !== lng) return;
      this.language = lng;
      if (!this.isInitialized) {
        this.isInitialized = true;
        this.emit('initialized', lng);
      }
      this.emit('languageChanged', lng);
    };
    if (this.bundles.has(lng) || !this.options.load) {
      apply();
      return Promise.resolve();
    }
    const loaded = this.loadLanguage(lng).then(apply);
    if (first) this.ready = loaded;
    return loaded;
  }

  private find(keys: readonly string[], options: TOptions | undefined): string | undefined {
    const languages = [this.language, ...(this.fallbackWanted && this.options.fallbackLng ? [this.options.fallbackLng] : [])];
    for (const lng of languages) {
      if (!lng) continue;
      const bundle = this.bundles.get(lng);
      if (!bundle) continue;
      for (const key of keys)
        for (const candidate of candidates(key, lng, options)) {
          const found = lookup(bundle, candidate);
          if (found !== undefined) return found;
        }
    }
    return undefined;
  }

  exists = (key: string | readonly string[], options?: TOptions): boolean =>
    this.find(typeof key === 'string' ? [key] : key, options) !== undefined;

  t: TFunction = (key, options) => {
    const keys = typeof key === 'string' ? [key] : key;
    const found = this.find(keys, options);
    if (found !== undefined) return interpolate(found, options);
    if (options?.defaultValue !== undefined) return interpolate(options.defaultValue, options);
    this.wantFallback();
    return keys[keys.length - 1] ?? '';
  };

  /**
   * The fallback language is loaded only once a key is missing in the current one (es, de and pt_BR are complete
   * today): loading it with the current language on every page would double the first visit's translations.
   * Not before the current language has arrived: every key is missing then.
   */
  private wantFallback() {
    const fallback = this.options.fallbackLng;
    if (this.fallbackWanted || !fallback || this.language === fallback || !this.resolvedLanguage) return;
    this.fallbackWanted = true;
    void this.loadLanguage(fallback).then(() => this.emit('added', fallback));
  }
}

export function createI18nInstance(options?: I18nOptions): I18n {
  return new I18n(options);
}
