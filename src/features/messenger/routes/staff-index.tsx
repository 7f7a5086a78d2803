/**
 * The staff Messenger: every conversation, filtered open / mine / unassigned / resolved / all and searched by the
 * user's name or e-mail (both in the URL), newest activity first, each with its unread count; and "new conversation"
 * with a user found by search. The list refreshes live through the staff presence channel (messenger-nav.tsx).
 */
import { Alert, Anchor, Badge, Button, Group, Modal, Pagination, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessagePlus, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useNavigate, useSearchParams } from '#src/lib/router.tsx';
import { toLocaleTag } from '#contract/languages.ts';
import { CONVERSATION_FILTERS, type Conversation, type ConversationFilter } from '#contract/support-chat.ts';
import { RadioChips } from '#src/components/radio-chips/radio-chips.tsx';
import { truncate } from '#src/lib/format.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { chatUsersQueryOptions, conversationsQueryOptions, MESSENGER_KEY, openConversation } from '../api/messenger-api.ts';
import classes from '../components/messenger.module.css';
import { queryView } from '#src/lib/query-view.ts';

const isFilter = (v: string | null): v is ConversationFilter => CONVERSATION_FILTERS.includes(v as ConversationFilter);

function ConversationRow({ c, meId }: { c: Conversation; meId: number }) {
  const { t } = useTranslation();
  const lng = useLng();
  const when = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(c.updated_at));
  const last = c.last_message;
  return (
    <li
      className={classes.item}
      data-unread={c.unread > 0 ? '' : undefined}
      data-testid="conversation-row"
      style={{ padding: 'var(--mantine-spacing-sm)', borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="wrap">
            <Anchor component={Link} to={`/${lng}/messenger/${c.id}`} fw={700}>
              {c.user.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {t(`messenger.roles.${c.user.role}`, { defaultValue: c.user.role })}
            </Text>
            {c.status === 'resolved' ? (
              <Badge size="xs" color="gray" variant="light">
                {t('messenger.staff.resolved')}
              </Badge>
            ) : null}
          </Group>
          {last ? (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {last.is_staff ? `${t('messenger.staff.staffPrefix', { name: last.sender_name ?? '' })} ` : ''}
              {truncate(last.content, 120)}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {c.assignee
              ? c.assignee.id === meId
                ? t('messenger.staff.assignedToMe')
                : t('messenger.staff.assignedTo', { name: c.assignee.name })
              : t('messenger.staff.unassigned')}
            {' · '}
            <time dateTime={c.updated_at}>{when}</time>
          </Text>
        </Stack>
        {c.unread > 0 ? (
          <Badge color="red" circle={c.unread < 10} aria-label={t('messenger.staff.unreadCount', { count: c.unread })}>
            {c.unread}
          </Badge>
        ) : null}
      </Group>
    </li>
  );
}

function StartConversation({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const users = useQuery({ ...chatUsersQueryOptions(debounced), enabled: opened });
  const usersView = queryView(users);
  const listId = useId();

  const start = async (userId: number, conversationId: number | null) => {
    setError(null);
    setBusy(userId);
    try {
      const id = conversationId ?? (await openConversation(userId)).id;
      void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
      onClose();
      await navigate(`/${lng}/messenger/${id}`);
    } catch {
      setError(t('messenger.staff.startError'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('messenger.staff.startTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack gap="sm">
        <TextInput
          label={t('messenger.staff.userSearch')}
          placeholder={t('messenger.staff.userSearchPlaceholder')}
          value={search}
          maxLength={100}
          onChange={(e) => setSearch(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          aria-controls={listId}
          data-autofocus
        />
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <div id={listId} aria-live="polite" aria-busy={users.isFetching}>
          {usersView.state === 'loading' ? (
            <Skeleton height={40} />
          ) : usersView.state === 'failed' ? (
            <Text c="red" size="sm">
              {t('messenger.staff.usersError')}
            </Text>
          ) : usersView.data.data.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('messenger.staff.noUsers')}
            </Text>
          ) : (
            <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {usersView.data.data.map((u) => (
                <li key={u.id}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {u.name}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {u.email} · {t(`messenger.roles.${u.role}`, { defaultValue: u.role })}
                      </Text>
                    </Stack>
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={busy === u.id}
                      onClick={() => void start(u.id, u.conversation_id)}
                      aria-label={t('messenger.staff.startWith', { name: u.email ? `${u.name} (${u.email})` : u.name })}
                    >
                      {u.conversation_id ? t('messenger.staff.open') : t('messenger.staff.start')}
                    </Button>
                  </Group>
                </li>
              ))}
            </Stack>
          )}
        </div>
      </Stack>
    </Modal>
  );
}

export function StaffIndex({ meId }: { meId: number }) {
  const { t } = useTranslation();
  usePageTitle(t('messenger.staff.title'));
  const [params, setParams] = useSearchParams();
  const filter: ConversationFilter = isFilter(params.get('filter')) ? (params.get('filter') as ConversationFilter) : 'open';
  const search = (params.get('search') ?? '').slice(0, 100);
  const page = Math.max(1, Math.min(1000, Number(params.get('page')) || 1));
  const [text, setText] = useState(search);
  const [starting, setStarting] = useState(false);
  useEffect(() => setText(search), [search]);
  const { data, isError, refetch } = useQuery(conversationsQueryOptions({ filter, search, page }));
  const view = queryView({ data, isError });

  const update = (patch: Record<string, string | number>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (!('page' in patch)) next.delete('page');
      for (const [k, v] of Object.entries(patch)) {
        if (v === '' || (k === 'filter' && v === 'open') || (k === 'page' && v === 1)) next.delete(k);
        else next.set(k, String(v));
      }
      return next;
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }} maw={960} mx="auto">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h2">
          {t('messenger.staff.title')}
        </Title>
        <Button leftSection={<IconMessagePlus size={18} aria-hidden />} onClick={() => setStarting(true)}>
          {t('messenger.staff.new')}
        </Button>
      </Group>
      <RadioChips
        label={t('messenger.staff.filterLabel')}
        value={filter}
        onChange={(v) => update({ filter: v })}
        options={CONVERSATION_FILTERS.map((f) => ({ value: f, label: t(`messenger.staff.filters.${f}`) }))}
      />
      <Group
        component="form"
        role="search"
        gap="xs"
        align="flex-end"
        onSubmit={(e) => {
          e.preventDefault();
          update({ search: text.trim() });
        }}
      >
        <TextInput
          label={t('messenger.staff.search')}
          placeholder={t('messenger.staff.searchPlaceholder')}
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: '1 1 200px' }}
        />
        <Button type="submit" variant="light">
          {t('messenger.staff.searchSubmit')}
        </Button>
      </Group>
      {view.state === 'loading' ? (
        <Stack gap="xs" aria-busy>
          <Skeleton height={64} />
          <Skeleton height={64} />
        </Stack>
      ) : view.state === 'failed' ? (
        <Alert color="red" title={t('messenger.staff.listError')}>
          <Button variant="light" color="red" size="xs" onClick={() => void refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : view.data.data.length === 0 ? (
        <Text c="dimmed">{t('messenger.staff.empty')}</Text>
      ) : (
        <ul
          style={{ listStyle: 'none', margin: 0, padding: 0, borderTop: '1px solid var(--mantine-color-default-border)' }}
          aria-label={t('messenger.staff.listLabel')}
        >
          {view.data.data.map((c) => (
            <ConversationRow key={c.id} c={c} meId={meId} />
          ))}
        </ul>
      )}
      {data && data.meta.last_page > 1 ? (
        <Pagination
          total={data.meta.last_page}
          value={data.meta.current_page}
          onChange={(p) => update({ page: p })}
          getControlProps={(control) => ({ 'aria-label': t(`messenger.staff.pagination.${control}`) })}
          getItemProps={(p) => ({ 'aria-label': t('messenger.staff.pagination.page', { page: p }) })}
        />
      ) : null}
      <StartConversation opened={starting} onClose={() => setStarting(false)} />
    </Stack>
  );
}
