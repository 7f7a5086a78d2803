/**
 * The Messenger's entry in the header for signed-in users, with the unread count. Staff join the support presence
 * channel here, wherever they are in the app: that is what "support is online" means to users, and the channel's
 * `ConversationUpdated` events keep their lists and counts current.
 */
import { ActionIcon, Indicator } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { CHAT_EVENTS, MESSENGER_PATH, STAFF_CHANNEL } from '#contract/support-chat.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useCatchUp, usePresence } from '#src/realtime/hooks.ts';
import { MESSENGER_KEY, unreadQueryOptions } from '../api/messenger-api.ts';

const noop = () => undefined;

export function MessengerNavLink({ isStaff }: { isStaff: boolean }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const { data } = useQuery(unreadQueryOptions());
  const unread = data?.unread ?? 0;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'unread'] });
    void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
  };
  usePresence(isStaff ? STAFF_CHANNEL : null, noop, { [CHAT_EVENTS.conversationUpdated]: refresh });
  useCatchUp(refresh);

  return (
    <Indicator label={unread > 99 ? '99+' : unread} size={16} offset={6} disabled={unread === 0} color="red" zIndex={1}>
      <ActionIcon
        component={Link}
        to={withLng(lng, MESSENGER_PATH)}
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={unread > 0 ? t('messenger.nav.openUnread', { count: unread }) : t('messenger.nav.open')}
        data-testid="messenger-nav"
      >
        <IconMessages size={20} aria-hidden />
      </ActionIcon>
    </Indicator>
  );
}
