/**
 * The header's sync indicator (issue 15 point 6) and the outbox's runtime for the signed-in user: loaded lazily by
 * layout.tsx for signed-in users, so Dexie and the replayer stay out of the home route's first paint. Discreet:
 * nothing shows while everything is sent; otherwise an icon with a count (offline / sending / n pending / n need
 * attention) that opens the sync page. An expired session during replay shows a notice with the sign-in link, which
 * brings the user back here; replay resumes after sign-in.
 */
import { ActionIcon, Badge, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCloudOff, IconCloudUp, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useLocation } from '#src/lib/router.tsx';
import { useLng, withLng } from '#src/lib/paths.ts';
import { rememberOutboxUser } from '#src/offline/auth-flag.ts';
import { startOutbox } from '#src/offline/runtime.ts';
import { changesOf, needsAttention } from '#src/offline/changes.ts';
import { useOutboxOps, useOutboxState } from '#src/offline/use-outbox.ts';
import { SignInNotice } from './sync-sign-in-notice.tsx';

export const SYNC_PATH = '/sync';

/**
 * `replay`: the server confirmed this user's session (the replayer runs); false while offline after a reload, when
 * only the device's queue of the last user is shown.
 */
export function SyncNav({ userId, replay = true }: { userId: number; replay?: boolean }) {
  const { t } = useTranslation();
  const lng = useLng();
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!replay) return;
    rememberOutboxUser(userId);
    return startOutbox({ userId, queryClient });
  }, [userId, queryClient, replay]);
  // Counted as the user's changes: a first message written offline is two ops (its conversation, then it).
  const ops = changesOf(useOutboxOps(userId) ?? []);
  const { online, syncing, needsSignIn } = useOutboxState();
  const attention = ops.filter(needsAttention).length;
  const pending = ops.length - attention;

  let state: string | undefined;
  let icon = <IconCloudUp size={20} aria-hidden />;
  let color = 'blue';
  let count = 0;
  if (needsSignIn) {
    state = t('outbox.indicator.signIn');
    icon = <IconAlertTriangle size={20} aria-hidden />;
    color = 'orange';
    count = ops.length;
  } else if (attention) {
    state = t('outbox.indicator.attention', { count: attention });
    icon = <IconAlertTriangle size={20} aria-hidden />;
    color = 'orange';
    count = attention;
  } else if (!online) {
    state = pending
      ? `${t('outbox.indicator.offline')} · ${t('outbox.indicator.pending', { count: pending })}`
      : t('outbox.indicator.offline');
    icon = <IconCloudOff size={20} aria-hidden />;
    color = 'gray';
    count = pending;
  } else if (pending) {
    state = syncing ? t('outbox.indicator.syncing') : t('outbox.indicator.pending', { count: pending });
    icon = syncing ? <IconRefresh size={20} aria-hidden /> : icon;
    count = pending;
  }
  const onSyncPage = location.pathname === withLng(lng, SYNC_PATH);

  return (
    <>
      {state ? (
        <Tooltip label={state}>
          <ActionIcon
            component={Link}
            to={withLng(lng, SYNC_PATH)}
            variant="subtle"
            color={color}
            size="lg"
            pos="relative"
            aria-label={t('outbox.indicator.label', { state })}
            data-testid="sync-indicator"
            data-state={needsSignIn ? 'auth' : attention ? 'attention' : !online ? 'offline' : 'pending'}
          >
            {icon}
            {count ? (
              <Badge size="xs" circle color={color} pos="absolute" top={-2} right={-2} aria-hidden>
                {count}
              </Badge>
            ) : null}
          </ActionIcon>
        </Tooltip>
      ) : null}
      {needsSignIn && !onSyncPage ? <SignInNotice next={location.pathname + location.search} /> : null}
    </>
  );
}
