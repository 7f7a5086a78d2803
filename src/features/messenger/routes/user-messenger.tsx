/**
 * The Messenger of a model, publicist or client: their one support conversation with staff. It exists once they
 * first write (POST conversations without `user_id` opens it, or reopens it when it was resolved).
 */
import { PushInvitation } from '#src/components/push-settings/push-invitation.tsx';
import { Alert, Button, Container, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Message } from '#contract/support-chat.ts';
import { OfflineError } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { conversationsQueryOptions, MESSENGER_KEY, openConversation } from '../api/messenger-api.ts';
import { SupportStatus } from '../components/support-status.tsx';
import { ThreadPanel } from '../components/thread-panel.tsx';
import { queueFirstMessage } from '../lib/chat-outbox.ts';
import { useThread, type Me } from '../lib/use-thread.ts';

export function UserMessenger({ me }: { me: Me }) {
  const { t } = useTranslation();
  usePageTitle(t('messenger.user.title'));
  const queryClient = useQueryClient();
  const list = useQuery(conversationsQueryOptions());
  const [openedId, setOpenedId] = useState<number | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const existing = list.data?.data[0] ?? null;
  const conversationId = existing?.id ?? openedId;
  const state = useThread(list.isPending ? null : conversationId, me);
  const conversation = state.conversation ?? existing;

  const senderLabel = (m: Message) =>
    m.is_staff ? (m.sender_name ? t('messenger.user.staffName', { name: m.sender_name }) : t('messenger.user.support')) : me.name;

  // After the user's first message, the one invitation to hear support's reply with the app closed (issue 25).
  const [sent, setSent] = useState(false);
  const onSend = async (content: string) => {
    setOpenError(null);
    let id = conversationId;
    // The first message opens the conversation (posting to a resolved one reopens it on the server); without a
    // network both wait in the outbox, the message after the opening.
    if (id == null) {
      try {
        if (!navigator.onLine) throw new OfflineError(new Error('offline'));
        const opened = await openConversation();
        id = opened.id;
        setOpenedId(opened.id);
        state.setConversation(opened);
        void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
      } catch (err) {
        if (
          err instanceof OfflineError &&
          (await queueFirstMessage(me.id, content, crypto.randomUUID()).then(
            () => true,
            () => false,
          ))
        )
          return;
        setOpenError(t('messenger.user.openError'));
        return;
      }
    }
    void state.send(content, { conversationId: id });
    setSent(true);
  };

  return (
    <Container size="sm" py="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Title order={1} size="h2">
              {t('messenger.user.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('messenger.user.intro')}
            </Text>
          </Stack>
          <SupportStatus />
        </Group>
        {conversation?.status === 'resolved' ? (
          <Text size="sm" c="dimmed" role="note">
            {t('messenger.user.resolved')}
          </Text>
        ) : null}
        {openError ? (
          <Alert color="red" role="alert">
            {openError}
          </Alert>
        ) : null}
        <PushInvitation show={sent} />
        <Paper withBorder={false}>
          {list.isPending ? (
            <Skeleton height={320} />
          ) : list.isError && !list.data ? (
            // (A failed refresh keeps the answer held — offline, the saved copy — and the screen shows it.)
            <Alert color="red" title={t('messenger.thread.loadError')}>
              <Button variant="light" color="red" size="xs" onClick={() => void list.refetch()}>
                {t('common.retry')}
              </Button>
            </Alert>
          ) : (
            <ThreadPanel state={state} me={me} senderLabel={senderLabel} onSend={(c) => void onSend(c)} />
          )}
        </Paper>
      </Stack>
    </Container>
  );
}
