/**
 * Offline, what the listing and a model's page show may be a saved copy (the persisted query cache, or the service
 * worker's): "Copia guardada: hace 2 horas", with the exact time on hover. Shown while the browser is offline or when
 * the last attempt to refresh the answer found no network. The time is when the answer was fetched: the query's, or
 * the service worker's stored answer's `Date` when that is older (an answer the worker gave from its cache reaches the
 * query as if new).
 */
import { Group, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isLanguage, toLocaleTag } from '#contract/languages.ts';
import { OfflineError } from '#src/lib/api-client.ts';

function subscribe(notify: () => void) {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
}

export function useOffline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !navigator.onLine,
    () => false,
  );
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "hace 5 minutos", "yesterday"… in the page's language. */
export function relativeTime(time: number, now: number, locale: string): string {
  const diff = time - now;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, 'second');
}

/** The `Date` of the service worker's stored answer to `url`, if it has one. */
async function storedAnswerDate(url: string): Promise<number | undefined> {
  if (typeof caches === 'undefined') return undefined;
  const res = await caches.match(url).catch(() => undefined);
  const date = res?.headers.get('date');
  const time = date ? Date.parse(date) : NaN;
  return Number.isFinite(time) ? time : undefined;
}

interface Props {
  /** The query's `dataUpdatedAt`. */
  updatedAt: number;
  /** The query's last refresh failed (its `error`, when it still has data). */
  error?: unknown;
  /** The answer's API path, to read the service worker's copy's date. */
  url?: string;
}

export function SavedCopyNote({ updatedAt, error, url }: Props) {
  const { t, i18n } = useTranslation();
  const offline = useOffline();
  const shown = updatedAt > 0 && (offline || error instanceof OfflineError);
  const [stored, setStored] = useState<number>();
  useEffect(() => {
    if (!shown || !url) return;
    let current = true;
    void storedAnswerDate(url).then((time) => current && setStored(time));
    return () => {
      current = false;
    };
  }, [shown, url]);
  if (!shown) return null;
  const time = stored !== undefined ? Math.min(stored, updatedAt) : updatedAt;
  const locale = toLocaleTag(isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es');
  const exact = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
  return (
    <Group gap={6} wrap="nowrap" c="dimmed" data-testid="saved-copy">
      <IconHistory size={16} aria-hidden />
      <Text size="sm">
        {t('pwa.savedCopy')}{' '}
        <time dateTime={new Date(time).toISOString()} title={exact}>
          {relativeTime(time, Date.now(), locale)}
        </time>
      </Text>
    </Group>
  );
}
