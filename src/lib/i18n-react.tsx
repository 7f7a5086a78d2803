/**
 * React's side of src/lib/i18n-core.ts (decision 0029): the provider, `useTranslation` (which suspends until the
 * language's translations are in, as react-i18next did with `useSuspense`) and `<Trans>` for the few texts with
 * markup (`<strong>{{email}}</strong>`).
 */
import { cloneElement, createContext, useContext, useMemo, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { createI18nInstance, interpolate, type I18n, type TFunction, type TOptions } from './i18n-core.ts';

// Outside a provider (a component test that does not need texts) the keys show as they are, as with react-i18next.
const I18nContext = createContext<I18n>(createI18nInstance({ lng: 'en' }));

export function I18nProvider({ i18n, children }: { i18n: I18n; children?: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  const changes = useSyncExternalStore(
    i18n.subscribe,
    () => i18n.changes,
    () => i18n.changes,
  );
  // Suspense: the boundary's fallback shows until the translations are in (the first visit's language, loading).
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a promise is how a component suspends
  if (!i18n.isReady) throw i18n.ready;
  // A new function at every change (language, translations added), so that memoised screens and effects using `t`
  // follow it, as react-i18next's did.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `changes` is the point: a new `t` per change.
  const t = useMemo<TFunction>(() => (key, options) => i18n.t(key, options), [i18n, changes]);
  return { t, i18n };
}

interface Element {
  name: string;
  children: Array<string | Element>;
}

const TAG = /<(\/?)([a-zA-Z][\w-]*)\s*(\/?)>/g;

/**
 * The text's tags named in `components` become those elements around their content; any other `<…>` stays text. The
 * values are put in after the markup is read, so a value (an e-mail address a user typed) can never add markup.
 */
function parse(text: string, components: Record<string, ReactElement>): Element {
  const root: Element = { name: '', children: [] };
  const open: Element[] = [root];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, closing, name = '', selfClosing] = match;
    const current = open[open.length - 1]!;
    if (match.index > last) current.children.push(text.slice(last, match.index));
    last = match.index + whole.length;
    if (!(name in components)) current.children.push(whole);
    else if (selfClosing) current.children.push({ name, children: [] });
    else if (closing) {
      if (open.length > 1 && current.name === name) open.pop();
      else current.children.push(whole);
    } else {
      const element: Element = { name, children: [] };
      current.children.push(element);
      open.push(element);
    }
  }
  if (last < text.length) open[open.length - 1]!.children.push(text.slice(last));
  return root;
}

function toNodes(element: Element, components: Record<string, ReactElement>, values: TOptions | undefined): ReactNode[] {
  return element.children.map((child, index) =>
    typeof child === 'string'
      ? interpolate(child, values)
      : cloneElement(components[child.name]!, { key: index }, ...(child.children.length ? toNodes(child, components, values) : [])),
  );
}

export function Trans({
  i18nKey,
  values,
  components = {},
}: {
  i18nKey: string;
  values?: TOptions;
  components?: Record<string, ReactElement>;
}) {
  const { t } = useTranslation();
  // Without values the placeholders stay in the text; they are filled in inside the parsed nodes.
  const text = t(i18nKey);
  return <>{toNodes(parse(text, components), components, values)}</>;
}
