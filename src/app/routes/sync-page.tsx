/**
 * The sync page (`/{lng}/sync`, issue 15 point 6): what is waiting in the outbox, in sending order, with its state, the
 * server's errors, and retry / edit / discard; the space the app uses on this device; a sign-in link when the queue
 * waits for one. Edit opens the feature's form with the queued values (`meta.editPath`, set by the feature).
 */
import { Alert, Badge, Button, Container, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate } from '#src/lib/router.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { loginPath, useLng, withLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { lastOutboxUser } from '#src/offline/auth-flag.ts';
import { carriersOnlyFor, changesOf, type Change } from '#src/offline/changes.ts';
import { outboxDb } from '#src/offline/outbox-db.ts';
import { discard, retryNow } from '#src/offline/outbox.ts';
import { replayNow } from '#src/offline/runtime.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import { useOutboxOps, useOutboxState } from '#src/offline/use-outbox.ts';

const STATUS_COLORS: Record<OutboxOp['status'], string> = {
  pending: 'blue',
  sending: 'cyan',
  conflict: 'orange',
  invalid: 'red',
  auth: 'orange',
  failed: 'red',
};

function useStorageEstimate(deps: unknown) {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number }>();
  useEffect(() => {
    let live = true;
    void navigator.storage
      ?.estimate?.()
      .then((e) => {
        if (live && e.usage !== undefined && e.quota !== undefined) setEstimate({ usage: e.usage, quota: e.quota });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [deps]);
  return estimate;
}

function bytes(n: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[i], unitDisplay: 'short', maximumFractionDigits: 1 }).format(n);
}

export function SyncPageRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('outbox.page.title'));
  const lng = useLng();
  const userQuery = useCurrentUser();
  const user = userQuery.data;
  // Offline after a reload the session cannot be checked: the device's queue of the last user is still listed.
  const userId = user?.id ?? (userQuery.isError ? lastOutboxUser() : undefined);
  const ops = useOutboxOps(userId);
  const changes = useMemo(() => (ops ? changesOf(ops) : undefined), [ops]);
  const { needsSignIn } = useOutboxState();
  const estimate = useStorageEstimate(ops?.length);
  const [discarding, setDiscarding] = useState<Change | null>(null);
  const locale = i18n.resolvedLanguage?.replace('_', '-') ?? 'es';
  const time = (ms: number) => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(ms);
  const waitsForAuth = needsSignIn || ops?.some((o) => o.status === 'auth');

  const sendAll = async () => {
    // Offline after a reload the session was never confirmed: ask again (the replayer starts once it is).
    if (!user) await userQuery.refetch();
    for (const op of ops ?? []) if (op.status === 'pending' || op.status === 'auth' || op.status === 'failed') await retryNow(op.id);
    replayNow();
  };

  if (userQuery.isPending) return <PageLoader />;
  if (user === null) return <Navigate to={loginPath(lng, withLng(lng, '/sync'))} replace />;

  return (
    <Container size={760} py="lg" px="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('outbox.page.heading')}</Title>
          <Text mt={4} c="dimmed" size="sm">
            {t('outbox.page.intro')}
          </Text>
        </div>
        {waitsForAuth ? (
          <Alert color="orange" variant="light" data-testid="sync-sign-in">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('outbox.signIn.text')}</Text>
              <Button component={Link} to={loginPath(lng, withLng(lng, '/sync'))} size="xs" color="orange">
                {t('outbox.signIn.button')}
              </Button>
            </Stack>
          </Alert>
        ) : null}
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed" data-testid="sync-storage">
            {estimate ? t('outbox.page.storage', { used: bytes(estimate.usage, locale), quota: bytes(estimate.quota, locale) }) : null}
          </Text>
          {changes?.length ? (
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void sendAll()}>
              {t('outbox.page.retryAll')}
            </Button>
          ) : null}
        </Group>
        {changes && changes.length === 0 ? <Text data-testid="sync-empty">{t('outbox.page.empty')}</Text> : null}
        <Stack gap="sm" component="ul" aria-label={t('outbox.page.list')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {(changes ?? []).map((change) => {
            const { op, status } = change;
            const editPath = typeof op.meta?.editPath === 'string' ? op.meta.editPath : undefined;
            const fieldErrors = Object.values(change.error?.errors ?? {}).flat();
            return (
              <Paper
                component="li"
                key={op.id}
                withBorder
                radius="md"
                p="md"
                data-testid="sync-op"
                data-status={status}
                data-kind={op.kind}
              >
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600}>{t(op.label, op.labelParams)}</Text>
                      {op.summary ? (
                        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {op.summary}
                        </Text>
                      ) : null}
                    </div>
                    <Badge variant="light" color={STATUS_COLORS[status]} tt="none" style={{ flexShrink: 0 }}>
                      {t(`outbox.status.${status}`)}
                    </Badge>
                  </Group>
                  {status === 'conflict' ? <Text size="sm">{t('outbox.conflictText')}</Text> : null}
                  {status === 'invalid' || status === 'failed' ? (
                    <Stack gap={2}>
                      {change.error?.message ? (
                        <Text size="sm" c="red">
                          {change.error.message}
                        </Text>
                      ) : null}
                      {fieldErrors.length ? (
                        <List size="sm" c="red">
                          {fieldErrors.map((m) => (
                            <List.Item key={m}>{m}</List.Item>
                          ))}
                        </List>
                      ) : null}
                    </Stack>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {t('outbox.page.queuedAt', { time: time(op.createdAt) })}
                    {change.attempts ? ` · ${t('outbox.page.attempts', { count: change.attempts })}` : ''}
                    {status === 'pending' && change.nextAttemptAt > Date.now()
                      ? ` · ${t('outbox.page.nextAttempt', { time: time(change.nextAttemptAt) })}`
                      : ''}
                  </Text>
                  <Group gap="xs">
                    {status === 'failed' || status === 'auth' || (status === 'pending' && change.nextAttemptAt > Date.now()) ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => void Promise.all(change.ids.map((id) => retryNow(id))).then(replayNow)}
                      >
                        {t('outbox.page.retry')}
                      </Button>
                    ) : null}
                    {editPath && (status === 'conflict' || status === 'invalid' || status === 'pending') ? (
                      <Button size="xs" variant="light" component={Link} to={editPath} data-testid="sync-op-edit">
                        {status === 'conflict' ? t('outbox.page.resolve') : t('outbox.page.edit')}
                      </Button>
                    ) : null}
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      disabled={status === 'sending'}
                      onClick={() => setDiscarding(change)}
                    >
                      {t('outbox.page.discard')}
                    </Button>
                  </Group>
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      </Stack>
      <Modal opened={discarding !== null} onClose={() => setDiscarding(null)} title={t('outbox.page.discardTitle')} centered>
        <Stack>
          <Text size="sm">{t('outbox.page.discardText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDiscarding(null)}>
              {t('outbox.page.cancel')}
            </Button>
            <Button
              color="red"
              data-testid="sync-discard-confirm"
              onClick={() => {
                // The change first, then what only it needed (a dependent whose carrier went first would fail).
                if (discarding) {
                  const carriers = carriersOnlyFor(discarding, ops ?? []);
                  void discard(discarding.op.id, outboxDb()).then(() => Promise.all(carriers.map((c) => discard(c.id, outboxDb()))));
                }
                setDiscarding(null);
              }}
            >
              {t('outbox.page.discard')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}
