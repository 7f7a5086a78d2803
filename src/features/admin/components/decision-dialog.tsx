import { Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { ACTIONS_FOR, decisionBodySchema, RESTRICTIONS, type DecisionAction, type DecisionSubject } from '#contract/admin.ts';
import type { Status } from '#contract/statuses.ts';
import { REASON_CODES } from '#contract/statements.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { ADMIN_KEY, decide } from '../api/admin-api.ts';

const FIELDS = ['reason_codes', 'text', 'action'] as const;

export interface DecisionTarget {
  subjectType: DecisionSubject;
  subjectId: number;
  action: DecisionAction;
  /** What the dialog and the buttons name (ad title, profile name…). */
  name: string;
  /** The action's name when the generic one would not say enough ("Suspend account" rather than "Block"). */
  label?: string;
  /** What the decision will do, shown above the form. */
  note?: string;
}

/**
 * The decision dialog: the action, reason codes (checkboxes; required for restrictions, which send the user a statement
 * of reasons) and free text (required for restrictions). On success every staff list and count is refreshed.
 */
export function DecisionDialog({ target, onClose }: { target: DecisionTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[]>([]);
  const [text, setText] = useState('');
  const { formRef, errors, pending, validate, run, clearError, reset, ui } = useApiForm(FIELDS);
  const restriction = target ? RESTRICTIONS.includes(target.action) : false;
  const actionLabel = target ? (target.label ?? t(`admin.actions.${target.action}`)) : '';

  const close = () => {
    setCodes([]);
    setText('');
    reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const values = validate(decisionBodySchema, {
      subject_type: target.subjectType,
      subject_id: target.subjectId,
      action: target.action,
      reason_codes: restriction ? codes : [],
      text,
    });
    if (!values) return;
    const res = await run(() => decide(values));
    if (!res) return;
    handleAnswer(res, ui);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    close();
  };

  return (
    <Modal
      opened={target !== null}
      onClose={close}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={target ? t('admin.dialog.title', { action: actionLabel, name: target.name }) : ''}
      size="lg"
      centered
    >
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          {target?.note ? <Text size="sm">{target.note}</Text> : null}
          {restriction ? (
            <>
              <Text size="sm">{t('admin.dialog.statementNote')}</Text>
              <Checkbox.Group
                label={t('admin.dialog.reasons')}
                value={codes}
                onChange={(v) => {
                  setCodes(v);
                  clearError('reason_codes');
                }}
                error={errors.reason_codes}
                required
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
                  {REASON_CODES.map((code) => (
                    <Checkbox key={code} value={code} label={t(`statements.grounds.${code}`)} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            </>
          ) : null}
          <Textarea
            label={restriction ? t('admin.dialog.text') : t('admin.dialog.textOptional')}
            autosize
            minRows={3}
            maxLength={2000}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              clearError('text');
            }}
            error={errors.text}
            required={restriction}
          />
          {errors.action || errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors.action ?? errors._}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('admin.dialog.cancel')}
            </Button>
            <Button type="submit" loading={pending} color={restriction ? 'red' : 'teal'}>
              {t('admin.dialog.confirm', { action: actionLabel })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The actions that make sense from a status: pending → approve/reject; active → suspend/pause; restricted → reinstate. */
export function actionsFrom(subject: DecisionSubject, status: Status | 'pending' | 'approved'): DecisionAction[] {
  const allowed = ACTIONS_FOR[subject];
  const wanted: DecisionAction[] =
    status === 'pending' || status === 'unverified'
      ? ['approve', 'reject']
      : status === 'active'
        ? ['suspend', 'pause']
        : status === 'approved'
          ? []
          : ['reinstate'];
  return wanted.filter((a) => allowed.includes(a));
}

/**
 * The decision buttons of one item. Each button's accessible name is "{action}: {name}" (e.g. "Rechazar: Nerea…"),
 * stable for tests and unambiguous for screen readers in a list of many items.
 */
export function DecisionButtons({
  subjectType,
  subjectId,
  name,
  actions,
  onDecide,
}: {
  subjectType: DecisionSubject;
  subjectId: number;
  name: string;
  actions: DecisionAction[];
  onDecide: (target: DecisionTarget) => void;
}) {
  const { t } = useTranslation();
  if (!actions.length) return null;
  return (
    <Group gap="xs" wrap="wrap">
      {actions.map((action) => (
        <Button
          key={action}
          size="xs"
          variant={action === 'approve' || action === 'reinstate' ? 'filled' : 'light'}
          color={action === 'approve' || action === 'reinstate' ? 'teal' : 'red'}
          aria-label={`${t(`admin.actions.${action}`)}: ${name}`}
          onClick={() => onDecide({ subjectType, subjectId, action, name })}
        >
          {t(`admin.actions.${action}`)}
        </Button>
      ))}
    </Group>
  );
}
