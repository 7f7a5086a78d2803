/**
 * The messages of a conversation, oldest at the top and newest at the bottom. It stays at the bottom while new
 * messages arrive (unless the reader scrolled up), keeps its place when older ones are added above, and loads those
 * when the reader reaches the top (or presses "earlier messages"). The other side's new messages are announced to
 * screen readers one at a time by a live region; the list itself is not live, so loading history announces nothing.
 */
import { Button, Center, Loader, Text, VisuallyHidden } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { toLocaleTag } from '#contract/languages.ts';
import type { Message } from '#contract/support-chat.ts';
import { useLng } from '#src/lib/paths.ts';
import { LinkifiedText } from '../lib/linkify-text.tsx';
import type { Thread } from '../lib/thread.ts';
import type { Me, PendingMessage } from '../lib/use-thread.ts';
import classes from './messenger.module.css';

const NEAR_BOTTOM_PX = 48;
const NEAR_TOP_PX = 80;

function dayOf(iso: string) {
  return iso.slice(0, 10);
}

interface Props {
  thread: Thread;
  pending: PendingMessage[];
  me: Me;
  loadingOlder: boolean;
  typers: string[];
  arrived: Message | null;
  onLoadOlder: () => void;
  /** The thread's end is on screen: what it shows has been seen. */
  onSeen: () => void;
  onRetry: (p: PendingMessage) => void;
  onDiscard: (key: string) => void;
  /** How the other side is named on this side ("Soporte" for the user). */
  senderLabel: (m: Message) => string;
}

export function MessageList({
  thread,
  pending,
  me,
  loadingOlder,
  typers,
  arrived,
  onLoadOlder,
  onSeen,
  onRetry,
  onDiscard,
  senderLabel,
}: Props) {
  const { t } = useTranslation();
  const lng = useLng();
  const boxRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const firstSeqRef = useRef<number | null>(null);
  const heightBefore = useRef(0);
  const time = new Intl.DateTimeFormat(toLocaleTag(lng), { timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'medium' });
  const { messages } = thread;

  const seenIfAtBottom = useCallback(() => {
    if (atBottom.current && document.visibilityState === 'visible') onSeen();
  }, [onSeen]);

  // Where to be after the messages change: same place when older ones came in above, else the bottom if we were there.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const first = messages[0]?.seq ?? null;
    const olderAdded = firstSeqRef.current !== null && first !== null && first < firstSeqRef.current;
    if (olderAdded) box.scrollTop += box.scrollHeight - heightBefore.current;
    else if (atBottom.current) box.scrollTop = box.scrollHeight;
    firstSeqRef.current = first;
    heightBefore.current = box.scrollHeight;
  }, [messages, pending.length]);

  useEffect(() => {
    seenIfAtBottom();
  }, [messages, seenIfAtBottom]);

  useEffect(() => {
    document.addEventListener('visibilitychange', seenIfAtBottom);
    return () => document.removeEventListener('visibilitychange', seenIfAtBottom);
  }, [seenIfAtBottom]);

  const onScroll = () => {
    const box = boxRef.current;
    if (!box) return;
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX;
    heightBefore.current = box.scrollHeight;
    if (box.scrollTop < NEAR_TOP_PX && thread.hasMoreBefore && !loadingOlder) onLoadOlder();
    seenIfAtBottom();
  };

  return (
    <>
      <div ref={boxRef} className={classes.thread} onScroll={onScroll} tabIndex={0} aria-label={t('messenger.thread.label')} role="region">
        {thread.hasMoreBefore ? (
          <Center>
            <Button variant="subtle" size="compact-sm" loading={loadingOlder} onClick={onLoadOlder}>
              {t('messenger.thread.earlier')}
            </Button>
          </Center>
        ) : null}
        {messages.length === 0 && pending.length === 0 ? (
          <Text c="dimmed" ta="center" my="auto" size="sm">
            {t('messenger.thread.empty')}
          </Text>
        ) : null}
        <ol className={classes.list}>
          {messages.map((m, i) => {
            const mine = m.sender_id === me.id;
            const newDay = i === 0 || dayOf(messages[i - 1]!.created_at) !== dayOf(m.created_at);
            const who = mine ? t('messenger.thread.you') : senderLabel(m);
            return (
              <Fragment key={m.seq}>
                {newDay ? (
                  <li className={classes.day} aria-hidden>
                    {day.format(new Date(m.created_at))}
                  </li>
                ) : null}
                <li className={classes.row} data-mine={mine ? '' : undefined} data-seq={m.seq} data-testid="chat-message">
                  <div className={classes.bubble}>
                    {mine ? (
                      <VisuallyHidden>{who}: </VisuallyHidden>
                    ) : (
                      <Text size="xs" fw={700} c="dimmed">
                        {who}
                      </Text>
                    )}
                    <LinkifiedText text={m.content} newTabLabel={t('messenger.thread.newTab')} />
                    <div className={classes.meta}>
                      <time dateTime={m.created_at}>{time.format(new Date(m.created_at))}</time>
                      {mine ? (
                        <span
                          className={classes.ticks}
                          data-read={m.read_at ? '' : undefined}
                          role="img"
                          aria-label={m.read_at ? t('messenger.thread.read') : t('messenger.thread.sent')}
                          data-testid="receipt"
                        >
                          {m.read_at ? '✓✓' : '✓'}
                        </span>
                      ) : null}
                    </div>
                  </div>
                </li>
              </Fragment>
            );
          })}
          {pending.map((p) => (
            <li key={p.key} className={classes.row} data-mine="" data-testid="chat-pending" data-waiting={p.waiting ? '' : undefined}>
              <div className={classes.bubble} data-failed={p.failed !== null ? '' : undefined}>
                <VisuallyHidden>{t('messenger.thread.you')}: </VisuallyHidden>
                {p.content}
                <div className={classes.meta}>
                  {p.failed === null && p.waiting ? (
                    <>
                      <IconClock size={12} aria-hidden />
                      <span data-testid="chat-waiting">{t('messenger.thread.waiting')}</span>
                    </>
                  ) : p.failed === null ? (
                    <>
                      <Loader size={10} aria-hidden />
                      <span>{t('messenger.thread.sending')}</span>
                    </>
                  ) : (
                    <>
                      <Text span size="xs" c="red">
                        {p.failed || t('messenger.thread.failed')}
                      </Text>
                      <Button variant="subtle" size="compact-xs" onClick={() => onRetry(p)}>
                        {t('common.retry')}
                      </Button>
                      <Button variant="subtle" color="gray" size="compact-xs" onClick={() => onDiscard(p.key)}>
                        {t('messenger.thread.discard')}
                      </Button>
                    </>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ol>
      </div>
      <div className={classes.typing} role="status" data-testid="typing">
        {typers.length > 0 ? t('messenger.thread.typing', { name: typers.join(', ') }) : null}
      </div>
      <VisuallyHidden aria-live="polite" aria-atomic>
        {arrived ? t('messenger.thread.arrived', { name: senderLabel(arrived), content: arrived.content }) : ''}
      </VisuallyHidden>
    </>
  );
}
