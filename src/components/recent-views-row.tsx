/**
 * The recently viewed models (issue 28) as a row of small cards: on the home (`RecentViewsRow`, hidden while the list
 * is empty) and in the client's dashboard (the favourites feature's panel uses `RecentViewsList`). The list is read
 * from this device after the page is up (src/lib/recent-views.ts loads it on demand), so the home's first paint and
 * its server render carry nothing of it. An ad no longer available says so and shows no photo.
 */
import { Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { keptPhotoUrl } from '#src/lib/favourites-photos.ts';
import { loadRecentViewsStore } from '#src/lib/recent-views.ts';
import type { RecentView } from '#src/lib/recent-views-store.ts';
import { useLng } from '#src/lib/paths.ts';
import classes from './recent-views-row.module.css';

/** The device's list, read once the page is idle and again whenever it changes; states refreshed once online. */
function useRecentViews(): RecentView[] | undefined {
  const [views, setViews] = useState<RecentView[]>();
  useEffect(() => {
    let off: (() => void) | undefined;
    let cancelled = false;
    const begin = () => {
      void loadRecentViewsStore().then(
        (s) => {
          if (cancelled) return;
          const read = () =>
            void s.recentViews().then(
              (v) => !cancelled && setViews(v),
              () => setViews([]),
            );
          off = s.onRecentViewsChanged(read);
          read();
          void s.refreshStates();
        },
        () => setViews([]),
      );
    };
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(begin, { timeout: 2000 }) : undefined;
    const timer = idle === undefined ? setTimeout(begin, 500) : undefined;
    return () => {
      cancelled = true;
      if (idle !== undefined) cancelIdleCallback(idle);
      if (timer !== undefined) clearTimeout(timer);
      off?.();
    };
  }, []);
  return views;
}

function RecentCard({ view, lng }: { view: RecentView; lng: string }) {
  const { t } = useTranslation();
  const available = view.state === 'available';
  const photo = available ? keptPhotoUrl(view.card.cover) : null;
  return (
    <li className={classes.item}>
      <Anchor
        component={Link}
        to={`/${lng}/models/${view.ad_id}`}
        underline="never"
        c="inherit"
        className={classes.link}
        data-testid="recent-view"
      >
        {photo ? (
          <img src={photo} alt="" width={112} height={140} loading="lazy" decoding="async" className={classes.photo} />
        ) : (
          <Box className={classes.photo} aria-hidden />
        )}
        <Text size="sm" fw={600} className={classes.name}>
          {view.card.name}
        </Text>
        {available ? (
          <Text size="xs" c="dimmed" className={classes.name}>
            {view.card.city.name}
          </Text>
        ) : (
          <Text size="xs" fw={600} className={classes.unavailable} data-testid="recent-view-unavailable">
            {t('recentViews.unavailable')}
          </Text>
        )}
      </Anchor>
    </li>
  );
}

/** The list with its heading and "Borrar"; `whenEmpty` is shown when there is nothing (the home shows nothing at all). */
export function RecentViewsList({ headingOrder = 2, whenEmpty }: { headingOrder?: 2 | 3; whenEmpty?: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  const views = useRecentViews();
  if (!views || (views.length === 0 && !whenEmpty)) return null;
  const clear = () => void loadRecentViewsStore().then((s) => s.clear());
  return (
    <section aria-labelledby="recent-views-title" data-testid="recent-views">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <div>
          <Title order={headingOrder} size="h4" id="recent-views-title">
            {t('recentViews.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('recentViews.note')}
          </Text>
        </div>
        {views.length > 0 ? (
          <Button variant="subtle" size="sm" h={44} onClick={clear} aria-label={t('recentViews.clearLabel')}>
            {t('recentViews.clear')}
          </Button>
        ) : null}
      </Group>
      {views.length === 0 ? (
        <Text size="sm" c="dimmed">
          {whenEmpty}
        </Text>
      ) : (
        <Stack gap={0}>
          <ul className={classes.row}>
            {views.map((v) => (
              <RecentCard key={v.ad_id} view={v} lng={lng} />
            ))}
          </ul>
        </Stack>
      )}
    </section>
  );
}

/** The home's row: nothing at all while the device has opened no model page. */
export function RecentViewsRow() {
  return <RecentViewsList />;
}
