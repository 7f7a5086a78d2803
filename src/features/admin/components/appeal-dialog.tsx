/** Deciding an appeal (DSA art. 20): the outcome comes from the button pressed, the reasoned text is required. */
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { appealDecisionSchema } from '#contract/admin.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { ADMIN_KEY, decideAppeal } from '../api/admin-api.ts';

const APPEAL_FIELDS = ['text', 'outcome'] as const;

export function AppealDialog({ target, onClose }: { target: { id: number; outcome: 'upheld' | 'reversed' } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const { formRef, errors, pending, validate, run, clearError, reset, ui } = useApiForm(APPEAL_FIELDS);
  const outcomeLabel = target ? t(target.outcome === 'upheld' ? 'admin.appeals.uphold' : 'admin.appeals.reverse') : '';
  const close = () => {
    setText('');
    reset();
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const values = validate(appealDecisionSchema, { outcome: target.outcome, text });
    if (!values) return;
    const res = await run(() => decideAppeal(target.id, values));
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
      title={target ? t('admin.appeals.dialogTitle', { outcome: outcomeLabel, id: target.id }) : ''}
      centered
      size="lg"
    >
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <Textarea
            label={t('admin.appeals.decisionLabel')}
            autosize
            minRows={3}
            maxLength={2000}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              clearError('text');
            }}
            error={errors.text}
            required
          />
          {errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors._}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('admin.dialog.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('admin.dialog.confirm', { action: outcomeLabel })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
