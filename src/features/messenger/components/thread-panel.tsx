/** The conversation itself, for both sides: the connection's state when it is down, the messages, the composer. */
import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Message } from '#contract/support-chat.ts';
import { useConnectionState } from '#src/realtime/hooks.ts';
import type { useThread } from '../lib/use-thread.ts';
import type { Me } from '../lib/use-thread.ts';
import { Composer } from './composer.tsx';
import { MessageList } from './message-list.tsx';

type ThreadState = ReturnType<typeof useThread>;

export function ConnectionNotice() {
  const { t } = useTranslation();
  const state = useConnectionState();
  if (state !== 'unavailable' && state !== 'failed' && state !== 'disconnected') return null;
  return (
    <Text size="xs" c="orange" role="status">
      {state === 'failed' ? t('messenger.connection.failed') : t('messenger.connection.reconnecting')}
    </Text>
  );
}

interface Props {
  state: ThreadState;
  me: Me;
  senderLabel: (m: Message) => string;
  onSend: (content: string) => void;
  composerDisabled?: boolean;
}

export function ThreadPanel({ state, me, senderLabel, onSend, composerDisabled }: Props) {
  const { t } = useTranslation();
  if (state.status === 'error') {
    return (
      <Alert color="red" title={t('messenger.thread.loadError')}>
        <Button variant="light" color="red" size="xs" onClick={state.retryLoad}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  }
  // The composer stays the same element while the messages load: the first message opens the conversation, whose
  // thread then loads, and a composer put back afterwards would have lost the keyboard focus of whoever just sent.
  return (
    <Stack gap={4}>
      {state.status === 'loading' ? (
        <Stack gap="xs" aria-busy>
          <Text size="sm" c="dimmed">
            {t('common.loading')}
          </Text>
          <Skeleton height={48} width="60%" />
          <Skeleton height={48} width="50%" ml="auto" />
        </Stack>
      ) : (
        <>
          <ConnectionNotice />
          {state.offlineCopy ? (
            <Text size="xs" c="dimmed" role="status" data-testid="chat-offline-copy">
              {t('messenger.thread.offlineCopy')}
            </Text>
          ) : null}
          <MessageList
            thread={state.thread}
            pending={state.pending}
            me={me}
            loadingOlder={state.loadingOlder}
            typers={state.typers}
            arrived={state.arrived}
            onLoadOlder={() => void state.loadOlder()}
            onSeen={() => void state.markSeen()}
            onRetry={(p) => void state.send(p.content, { key: p.key })}
            onDiscard={state.discard}
            senderLabel={senderLabel}
          />
        </>
      )}
      <Composer onSend={onSend} onTyping={state.notifyTyping} disabled={composerDisabled} />
    </Stack>
  );
}
