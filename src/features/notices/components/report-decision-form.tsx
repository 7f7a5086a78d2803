/** The decision on a notice (DSA art. 16(5)): outcome and reasons; someone else's decision in between is shown, not overwritten. */
import { Button, Group, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { reportDecisionSchema, type Report } from '#contract/reports.ts';
import { FormError } from '#src/components/form-error.tsx';
import { ConflictError } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { decideReport, NOTICES_KEY, reportOptions } from '../api/notices-api.ts';

const FIELDS = ['outcome', 'text'] as const;

export function DecisionForm({ report }: { report: Report }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<'' | 'actioned' | 'dismissed'>('');
  const [text, setText] = useState('');
  const form = useApiForm(FIELDS);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(reportDecisionSchema, { outcome: outcome || undefined, text });
    if (!input) return;
    const res = await form.run(() => decideReport(report.id, input), {
      onError: async (err) => {
        if (!(err instanceof ConflictError)) return false;
        // Someone else decided it meanwhile: show their decision.
        form.fail({ _: err.data?.message ?? t('notices.report.alreadyDecided') });
        await queryClient.invalidateQueries({ queryKey: NOTICES_KEY });
        return true;
      },
    });
    if (!res) return;
    handleAnswer(res, form.ui);
    queryClient.setQueryData(reportOptions(report.id).queryKey, res.data.data);
    await queryClient.invalidateQueries({ queryKey: [...NOTICES_KEY, 'reports'] });
  };
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="decision-heading">
      <form ref={form.formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="decision-heading">
            {t('notices.decision.heading')}
          </Title>
          <Text size="sm">{t('notices.decision.intro')}</Text>
          <FormError message={form.errors._} />
          <Radio.Group
            label={t('notices.decision.outcome')}
            withAsterisk
            value={outcome}
            onChange={(v) => {
              setOutcome(v);
              form.clearError('outcome');
            }}
            error={form.errors.outcome}
          >
            <Stack gap={8} mt={6}>
              <Radio
                value="actioned"
                aria-invalid={form.errors.outcome ? true : undefined}
                label={t('notices.decision.actioned')}
                description={t('notices.decision.actionedHelp')}
              />
              <Radio
                value="dismissed"
                aria-invalid={form.errors.outcome ? true : undefined}
                label={t('notices.decision.dismissed')}
                description={t('notices.decision.dismissedHelp')}
              />
            </Stack>
          </Radio.Group>
          <Textarea
            label={t('notices.decision.text')}
            description={report.contact ? t('notices.decision.textHelpMailed') : t('notices.decision.textHelp')}
            withAsterisk
            autosize
            minRows={3}
            maxRows={10}
            maxLength={2000}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              form.clearError('text');
            }}
            error={form.errors.text}
          />
          <Group>
            <Button type="submit" loading={form.pending}>
              {t('notices.decision.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
