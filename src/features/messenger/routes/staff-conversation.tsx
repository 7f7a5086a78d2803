/**
 * One conversation on the staff side: the messages and composer, who is in charge (assign to myself or to another
 * staff member), resolve / reopen, and beside it who the user is and what they publish (below it on phones).
 */
import { Alert, Anchor, Badge, Button, Grid, Group, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { Answer } from '#contract/answers.ts';
import type { Conversation, Message } from '#contract/support-chat.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import {
  assignConversation,
  MESSENGER_KEY,
  reopenConversation,
  resolveConversation,
  staffQueryOptions,
  userPanelQueryOptions,
} from '../api/messenger-api.ts';
import { ThreadPanel } from '../components/thread-panel.tsx';
import { useThread, type Me } from '../lib/use-thread.ts';
import { queryView } from '#src/lib/query-view.ts';

function UserPanel({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation();
  const lng = useLng();
  const view = queryView(useQuery(userPanelQueryOptions(conversationId)));
  return (
    <Paper withBorder p="md" radius="md" component="aside" aria-labelledby="messenger-user-panel">
      <Title order={2} size="h4" id="messenger-user-panel" mb="xs">
        {t('messenger.panel.title')}
      </Title>
      {view.state === 'loading' ? (
        <Skeleton height={120} />
      ) : view.state === 'failed' ? (
        <Text c="red" size="sm">
          {t('messenger.panel.error')}
        </Text>
      ) : (
        <Stack gap="sm">
          <Stack gap={2}>
            <Text fw={700}>{view.data.user.name}</Text>
            {view.data.user.email ? (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {view.data.user.email}
              </Text>
            ) : null}
            <Group gap={6}>
              <Badge variant="light">{t(`messenger.roles.${view.data.user.role}`, { defaultValue: view.data.user.role })}</Badge>
              {/* The account's status says whether the e-mail was verified, not the person: worded so (a bare
                  «Verificado» read as "identity verified"). */}
              <Badge variant="light" color="gray">
                {t(`messenger.panel.accountStatus.${view.data.user.status}`, {
                  defaultValue: t(`statuses.${view.data.user.status}`, { defaultValue: view.data.user.status }),
                })}
              </Badge>
            </Group>
          </Stack>
          {view.data.model_profiles.length > 0 ? (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('messenger.panel.profiles')}
              </Text>
              {view.data.model_profiles.map((p) => (
                <Text key={p.id} size="sm">
                  {p.name}
                  {p.city ? ` · ${p.city}` : ''} · {t(`statuses.${p.status}`, { defaultValue: p.status })}
                </Text>
              ))}
            </Stack>
          ) : null}
          {view.data.publicist_profile ? (
            <Text size="sm">
              {t('messenger.panel.agency')}: {view.data.publicist_profile.name} ·{' '}
              {t(`statuses.${view.data.publicist_profile.status}`, { defaultValue: view.data.publicist_profile.status })}
            </Text>
          ) : null}
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('messenger.panel.ads')}
            </Text>
            {view.data.ads.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('messenger.panel.noAds')}
              </Text>
            ) : (
              view.data.ads.map((ad) => (
                <Group key={ad.id} gap={6} wrap="nowrap" justify="space-between">
                  {ad.url ? (
                    <Anchor component={Link} to={withLng(lng, ad.url)} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {ad.title}
                    </Anchor>
                  ) : (
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {ad.title}
                    </Text>
                  )}
                  <Badge size="xs" variant="light" color="gray" style={{ flex: 'none' }}>
                    {t(`statuses.${ad.status}`, { defaultValue: ad.status })}
                  </Badge>
                </Group>
              ))
            )}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}

function Actions({ conversation, me, onChanged }: { conversation: Conversation; me: Me; onChanged: (c: Conversation | null) => void }) {
  const { t } = useTranslation();
  const staff = useQuery(staffQueryOptions());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (name: string, call: () => Promise<{ data: Answer }>) => {
    setBusy(name);
    setError(null);
    try {
      const res = await call();
      const record = res.data.data as Conversation | undefined;
      onChanged(record && typeof record === 'object' && 'id' in record ? record : null);
    } catch (err) {
      setError(err instanceof ApiError && err.data?.message ? err.data.message : t('messenger.staff.actionError'));
    } finally {
      setBusy(null);
    }
  };

  const options = [
    { value: '', label: t('messenger.staff.nobody') },
    ...(staff.data?.data ?? []).map((s) => ({
      value: String(s.id),
      label: s.online ? t('messenger.staff.memberOnline', { name: s.name }) : s.name,
    })),
  ];
  if (conversation.assignee && !options.some((o) => o.value === String(conversation.assignee!.id))) {
    options.push({ value: String(conversation.assignee.id), label: conversation.assignee.name });
  }

  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t('messenger.staff.assign')}
          data={options}
          value={conversation.assigned_to === null ? '' : String(conversation.assigned_to)}
          allowDeselect={false}
          disabled={busy !== null}
          onChange={(v) => void run('assign', () => assignConversation(conversation.id, v ? Number(v) : null))}
          w={{ base: '100%', xs: 240 }}
        />
        {conversation.assigned_to !== me.id ? (
          <Button
            variant="light"
            loading={busy === 'mine'}
            onClick={() => void run('mine', () => assignConversation(conversation.id, me.id))}
          >
            {t('messenger.staff.assignMe')}
          </Button>
        ) : null}
        {conversation.status === 'open' ? (
          <Button
            variant="light"
            color="teal"
            loading={busy === 'resolve'}
            onClick={() => void run('resolve', () => resolveConversation(conversation.id))}
          >
            {t('messenger.staff.resolve')}
          </Button>
        ) : (
          <Button variant="light" loading={busy === 'reopen'} onClick={() => void run('reopen', () => reopenConversation(conversation.id))}>
            {t('messenger.staff.reopen')}
          </Button>
        )}
      </Group>
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

export function StaffConversation({ conversationId, me }: { conversationId: number; me: Me }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const state = useThread(conversationId, me);
  const conversation = state.conversation;
  usePageTitle(conversation ? t('messenger.staff.conversationTitle', { name: conversation.user.name }) : t('messenger.staff.title'));

  const senderLabel = (m: Message) =>
    m.is_staff
      ? t('messenger.staff.staffName', { name: m.sender_name ?? t('messenger.user.support') })
      : (m.sender_name ?? conversation?.user.name ?? '');

  const onChanged = (next: Conversation | null) => {
    if (next) state.setConversation((was) => ({ ...next, unread: was?.unread ?? next.unread }));
    void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
    if (!next) state.retryLoad();
  };

  return (
    // The thread's height leaves room for what is above it here: the back link and the assignment row (at 1280×800
    // «Enviar» was below the fold with the user's own Messenger's allowance).
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }} maw={1280} mx="auto" style={{ '--thread-offset': '430px' }}>
      <Anchor component={Link} to={`/${lng}/messenger`} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('messenger.staff.back')}
        </Group>
      </Anchor>
      {state.status === 'error' ? (
        <Alert color="red" title={t('messenger.thread.loadError')}>
          <Button variant="light" color="red" size="xs" onClick={state.retryLoad}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
                  {conversation ? conversation.user.name : t('common.loading')}
                </Title>
                {conversation ? (
                  <Badge color={conversation.status === 'open' ? 'teal' : 'gray'} variant="light">
                    {t(`messenger.staff.statuses.${conversation.status}`)}
                  </Badge>
                ) : null}
              </Group>
              {conversation ? <Actions conversation={conversation} me={me} onChanged={onChanged} /> : null}
              <ThreadPanel state={state} me={me} senderLabel={senderLabel} onSend={(c) => void state.send(c)} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <UserPanel conversationId={conversationId} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
