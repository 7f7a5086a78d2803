/**
 * A review queue staff can clear by keyboard (issue 29 point 4): `j`/`k` move, `a` approves, `r` rejects with a reason
 * picker whose digits 1–9 are the rules, `x` selects, `Shift+A`/`Shift+R` decide the selection, `?` shows the keys.
 * Every key has a button (360 px, mouse, switch access); keys do nothing while typing in a field or while a dialog is
 * open (Mantine's useHotkeys ignores inputs; the dialogs own their keys). The current item takes the focus and each
 * move, decision and skip is said in a polite live region. An item a colleague decided meanwhile (the server's 409
 * with `decided_meanwhile`) leaves the queue with a note naming them and when.
 */
import { Button, Checkbox, Group, Kbd, List, Modal, Radio, SimpleGrid, Stack, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { DECISION_TEXT_MIN, REVIEW_EVENTS, type DecisionAction, type DecisionSubject } from '#contract/admin.ts';
import { STAFF_CHANNEL } from '#contract/support-chat.ts';
import { usePresence } from '#src/realtime/hooks.ts';
import { REASON_CODES } from '#contract/statements.ts';
import { ConflictError } from '#src/lib/api-client.ts';
import { ADMIN_KEY, decide } from '../api/admin-api.ts';
import {
  currentId,
  decidedMeanwhileOf,
  digitIndex,
  initialQueue,
  move,
  relativeTime,
  removeIds,
  syncQueue,
  targets,
  toggleSelected,
  type QueueState,
} from '../lib/review-keys.ts';
import classes from './review-queue.module.css';

export interface QueueItem {
  id: number;
  subjectType: DecisionSubject;
  /** What buttons and announcements call it (the ad's title, "title #photo"). */
  name: string;
  /** The restriction `r` applies: reject (ads, verifications) or remove (photos). */
  rejectAction: DecisionAction;
}

interface Skipped {
  id: number;
  name: string;
  who: string | null;
  at: string | null;
}

/** The keys as the help dialog lists them (`?`). */
const KEYS: [keys: string[], what: string][] = [
  [['j'], 'next'],
  [['k'], 'prev'],
  [['a'], 'approve'],
  [['r'], 'reject'],
  [['1', '9'], 'digits'],
  [['x'], 'select'],
  [['Shift', 'A'], 'approveSelected'],
  [['Shift', 'R'], 'rejectSelected'],
  [['?'], 'help'],
  [['Esc'], 'close'],
];

const ignoreMembers = () => {};

export function ReviewQueue<T>({
  items,
  itemOf,
  render,
  label,
}: {
  items: T[];
  itemOf: (row: T) => QueueItem;
  /** One item's content; `current` is the item the keys act on. */
  render: (row: T, state: { current: boolean; selected: boolean }) => ReactNode;
  /** The list's accessible name. */
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const byId = new Map(items.map((row) => [itemOf(row).id, row]));
  const [state, setState] = useState<QueueState>(() => initialQueue(items.map((r) => itemOf(r).id)));
  const [gone, setGone] = useState<ReadonlySet<number>>(new Set());
  const [skipped, setSkipped] = useState<Skipped[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [help, setHelp] = useState(false);
  const [rejecting, setRejecting] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  // A colleague's decision refetches the queue at once (the staff channel's broadcast): their item leaves this queue.
  usePresence(STAFF_CHANNEL, ignoreMembers, {
    [REVIEW_EVENTS.decided]: () => void queryClient.invalidateQueries({ queryKey: ADMIN_KEY }),
  });
  const refs = useRef(new Map<number, HTMLElement>());
  const focusNext = useRef(false);

  const idsKey = items.map((r) => itemOf(r).id).join(',');
  useEffect(() => {
    const ids = idsKey ? idsKey.split(',').map(Number) : [];
    setState((s) =>
      syncQueue(
        s,
        ids.filter((id) => !gone.has(id)),
      ),
    );
  }, [idsKey, gone]);

  const current = currentId(state);
  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current = false;
    if (current !== undefined) refs.current.get(current)?.focus();
  }, [current, state]);

  const item = (id: number) => {
    const row = byId.get(id);
    return row === undefined ? undefined : itemOf(row);
  };
  const dialogOpen = help || rejecting !== null;

  const go = (delta: number) => {
    focusNext.current = true;
    const next = move(state, delta);
    setState(next);
    const id = currentId(next);
    const it = id === undefined ? undefined : item(id);
    if (it) setAnnouncement(t('reviewQueue.current', { n: next.active + 1, total: next.ids.length, name: it.name }));
  };

  const select = () => {
    const id = currentId(state);
    const it = id === undefined ? undefined : item(id);
    if (!it) return;
    const next = toggleSelected(state);
    setState(next);
    setAnnouncement(
      t(next.selected.has(it.id) ? 'reviewQueue.selected' : 'reviewQueue.unselected', { name: it.name, count: next.selected.size }),
    );
  };

  /** Decides each item in turn; a colleague's decision meanwhile skips the item with its note, other errors stop. */
  const run = async (ids: number[], action: 'approve' | 'reject', codes: string[] = [], text = '') => {
    if (!ids.length || busy) return;
    setBusy(true);
    const done: number[] = [];
    const notes: string[] = [];
    try {
      for (const id of ids) {
        const it = item(id);
        if (!it) continue;
        const restriction = action === 'reject';
        try {
          await decide({
            subject_type: it.subjectType,
            subject_id: it.id,
            action: restriction ? it.rejectAction : 'approve',
            reason_codes: restriction ? (codes as (typeof REASON_CODES)[number][]) : [],
            text: restriction ? text : '',
            from_queue: true,
          });
          done.push(id);
          notes.push(t(restriction ? 'reviewQueue.rejected' : 'reviewQueue.approved', { name: it.name }));
        } catch (err) {
          const meanwhile = err instanceof ConflictError ? decidedMeanwhileOf(err.data?.data) : null;
          if (!meanwhile) {
            notes.push(t('reviewQueue.failed', { name: it.name }));
            break;
          }
          done.push(id);
          const skip: Skipped = { id, name: it.name, who: meanwhile.decided_by.name, at: meanwhile.decided_at };
          setSkipped((list) => [skip, ...list.filter((s) => s.id !== id)]);
          notes.push(t('reviewQueue.skipped', { name: it.name, note: noteOf(skip) }));
        }
      }
    } finally {
      setBusy(false);
    }
    focusNext.current = true;
    setGone((g) => new Set([...g, ...done]));
    setState((s) => removeIds(s, done));
    setAnnouncement(notes.join(' '));
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };

  const noteOf = (s: Skipped) => {
    const when = s.at ? relativeTime(s.at, i18n.language) : '';
    return s.who ? t('reviewQueue.decidedBy', { name: s.who, when }) : t('reviewQueue.decidedBySomeone', { when });
  };

  const openReject = (ids: number[]) => {
    if (ids.length) setRejecting(ids);
  };
  const ifFree = (fn: () => void) => () => {
    if (!dialogOpen && !busy) fn();
  };
  const single = () => (current === undefined ? [] : [current]);

  useHotkeys([
    ['j', ifFree(() => go(1))],
    ['k', ifFree(() => go(-1))],
    ['a', ifFree(() => void run(single(), 'approve'))],
    ['r', ifFree(() => openReject(single()))],
    ['x', ifFree(select)],
    ['shift+a', ifFree(() => void run(targets(state), 'approve'))],
    ['shift+r', ifFree(() => openReject(targets(state)))],
    ['shift+?', ifFree(() => setHelp(true))],
  ]);

  const visible = state.ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [{ row, it: itemOf(row) }];
  });

  return (
    <Stack gap="sm">
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="review-announcer">
        {announcement}
      </VisuallyHidden>
      <Text size="sm" c="dimmed">
        {t('reviewQueue.hint')}
      </Text>
      {skipped.length ? (
        <List size="sm" aria-label={t('reviewQueue.skippedTitle')} data-testid="review-skipped">
          {skipped.map((s) => (
            <List.Item key={s.id}>
              <Text span fw={600} size="sm">
                {s.name}
              </Text>
              {': '}
              {noteOf(s)}
            </List.Item>
          ))}
        </List>
      ) : null}
      {visible.length === 0 && items.length > 0 ? <Text c="dimmed">{t('reviewQueue.cleared')}</Text> : null}
      <Stack gap="md" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {visible.map(({ row, it }) => {
          const isCurrent = it.id === current;
          const isSelected = state.selected.has(it.id);
          return (
            <li
              key={it.id}
              ref={(el) => {
                if (el) refs.current.set(it.id, el);
                else refs.current.delete(it.id);
              }}
              tabIndex={-1}
              className={classes.item}
              data-active={isCurrent || undefined}
              data-selected={isSelected || undefined}
              aria-current={isCurrent ? 'true' : undefined}
              data-testid="review-queue-item"
              data-id={it.id}
            >
              <Stack gap={6}>
                <Checkbox
                  size="xs"
                  label={t('reviewQueue.selectItem', { name: it.name })}
                  checked={isSelected}
                  onChange={() => {
                    setState((s) => toggleSelected({ ...s, active: s.ids.indexOf(it.id) }));
                  }}
                />
                {render(row, { current: isCurrent, selected: isSelected })}
              </Stack>
            </li>
          );
        })}
      </Stack>
      <Group gap="xs" className={classes.toolbar} role="toolbar" aria-label={t('reviewQueue.toolbar')}>
        <Button size="xs" variant="default" onClick={() => go(-1)} disabled={!visible.length}>
          {t('reviewQueue.buttons.prev')}
        </Button>
        <Button size="xs" variant="default" onClick={() => go(1)} disabled={!visible.length}>
          {t('reviewQueue.buttons.next')}
        </Button>
        <Button size="xs" variant="default" onClick={select} disabled={current === undefined}>
          {t('reviewQueue.buttons.select')}
        </Button>
        <Button size="xs" color="teal" onClick={() => void run(targets(state), 'approve')} disabled={!visible.length} loading={busy}>
          {state.selected.size
            ? t('reviewQueue.buttons.approveSelected', { count: state.selected.size })
            : t('reviewQueue.buttons.approve')}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => openReject(targets(state))} disabled={!visible.length}>
          {state.selected.size ? t('reviewQueue.buttons.rejectSelected', { count: state.selected.size }) : t('reviewQueue.buttons.reject')}
        </Button>
        <Button size="xs" variant="subtle" onClick={() => setHelp(true)}>
          {t('reviewQueue.buttons.help')}
        </Button>
      </Group>
      <HelpDialog opened={help} onClose={() => setHelp(false)} />
      <RejectDialog
        names={(rejecting ?? []).map((id) => item(id)?.name ?? '')}
        opened={rejecting !== null}
        onClose={() => {
          setRejecting(null);
          focusNext.current = true;
          setState((s) => ({ ...s }));
        }}
        onConfirm={(codes, text) => {
          const ids = rejecting ?? [];
          setRejecting(null);
          void run(ids, 'reject', codes, text);
        }}
      />
    </Stack>
  );
}

/** `?`: every key and what it does, in a dialog (Escape closes it). */
export function HelpDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('reviewQueue.help.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
    >
      <Stack gap="sm">
        <Text size="sm">{t('reviewQueue.help.intro')}</Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('reviewQueue.help.key')}</Table.Th>
              <Table.Th scope="col">{t('reviewQueue.help.action')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {KEYS.map(([keys, what]) => (
              <Table.Tr key={what}>
                <Table.Td className={classes.kbd}>
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i ? (what === 'digits' ? ' – ' : ' + ') : null}
                      <Kbd>{k}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{t(`reviewQueue.help.keys.${what}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}

/**
 * `r`: the rules numbered 1–9; a digit picks one and fills the statement's facts with the rule's standard sentence
 * (editable), focus goes to the confirm button and Enter rejects. The facts are what the person is told (DSA art. 17).
 */
export function RejectDialog({
  names,
  opened,
  onClose,
  onConfirm,
}: {
  names: string[];
  opened: boolean;
  onClose: () => void;
  onConfirm: (codes: string[], text: string) => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string>('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!opened) {
      setCode('');
      setText('');
      setError(null);
    }
  }, [opened]);

  // From a digit, the focus moves at once: "7" then Enter typed in a row confirms (moved at the next frame, the Enter
  // could come first and press the dialog's close button). From a click on a radio, at the next frame: the click's
  // own focus on the radio comes after this handler.
  const pick = (c: string, focusNow = false) => {
    setCode(c);
    setError(null);
    setText((prev) =>
      prev.trim() && !REASON_CODES.some((r) => prev === t('reviewQueue.reject.facts', { rule: t(`statements.grounds.${r}`) }))
        ? prev
        : t('reviewQueue.reject.facts', { rule: t(`statements.grounds.${c}`) }),
    );
    if (focusNow) confirmRef.current?.focus();
    else requestAnimationFrame(() => confirmRef.current?.focus());
  };
  // Whether the dialog is open, read by the digits' listener: useHotkeys installs each render's listener in an effect
  // that may run after the opened dialog has been painted, and the previous listener, still installed, saw it closed.
  // Set in a layout effect, before the dialog can be seen (a digit typed at once was dropped, and the Enter after it
  // pressed the close button).
  const openedRef = useRef(opened);
  useLayoutEffect(() => {
    openedRef.current = opened;
  }, [opened]);
  // Digits pick a rule wherever the focus is in the dialog (its close button, a radio), except in the facts field,
  // where a digit is text.
  useHotkeys(
    REASON_CODES.slice(0, 9).map((c, i): [string, () => void] => [
      String(i + 1),
      () => {
        if (openedRef.current && digitIndex(String(i + 1), REASON_CODES.length) !== null) pick(c, true);
      },
    ]),
    ['TEXTAREA'],
  );
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!code) return setError(t('admin.validation.reasons'));
    if (text.trim().length < DECISION_TEXT_MIN) return setError(t('admin.validation.text'));
    onConfirm([code], text.trim());
  };
  const title =
    names.length === 1 ? t('reviewQueue.reject.title', { name: names[0] }) : t('reviewQueue.reject.titleMany', { count: names.length });
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('reviewQueue.reject.hint')}</Text>
          <Radio.Group label={t('reviewQueue.reject.reasons')} value={code} onChange={(value) => pick(value)} required>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
              {REASON_CODES.map((c, i) => (
                <Radio key={c} value={c} label={`${i + 1}. ${t(`statements.grounds.${c}`)}`} />
              ))}
            </SimpleGrid>
          </Radio.Group>
          <Textarea
            label={t('admin.dialog.text')}
            autosize
            minRows={2}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            required
          />
          {error ? (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.dialog.cancel')}
            </Button>
            {/* The dialog's first focus (Mantine's data-autofocus): it comes a moment after the dialog is on screen, and
                elsewhere it took the focus back from a digit typed at once, so the Enter after it closed the dialog.
                Without a rule picked, Enter here only says to pick one. */}
            <Button type="submit" color="red" ref={confirmRef} data-autofocus>
              {t('reviewQueue.reject.confirm', { count: names.length })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
