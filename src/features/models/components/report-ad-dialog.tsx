import { Alert, Anchor, Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircleCheck, IconFlag } from '@tabler/icons-react';
import { useState, type RefObject } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { REPORT_DETAILS_MAX, REPORT_REASONS, reportCreateSchema } from '#contract/reports.ts';
import { FormError } from '#src/components/form-error.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { useLng } from '#src/lib/paths.ts';
import { sendReport } from '../api/report-ad.ts';

const FIELDS = ['reason', 'details', 'contact'] as const;

/**
 * The "report this ad" dialog (see report-ad.tsx): loaded when first asked for, then kept mounted so what was typed
 * survives closing it; cleared once a notice was sent.
 */
export function ReportAdDialog({
  adId,
  opened,
  openedAt,
  onClose,
}: {
  adId: number;
  opened: boolean;
  /** When the dialog was opened (the server's time-to-fill check against automated senders). */
  openedAt: RefObject<number>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lng = useLng();
  const phone = useMediaQuery('(max-width: 567px)');
  const form = useApiForm(FIELDS);
  const [reason, setReason] = useState<string>('');
  const [details, setDetails] = useState('');
  const [contact, setContact] = useState('');
  const [website, setWebsite] = useState('');
  const [receipt, setReceipt] = useState<string | null>(null);

  const finish = () => {
    onClose();
    if (receipt) {
      setReason('');
      setDetails('');
      setContact('');
    }
  };

  const submit = async () => {
    const input = form.validate(reportCreateSchema, {
      ad_id: adId,
      reason: reason || undefined,
      details,
      contact: contact || undefined,
      ...(website ? { website } : {}),
      opened_at: openedAt.current,
    });
    if (!input) return;
    const res = await form.run(() => sendReport({ ...input, contact: input.contact }));
    if (res) setReceipt(res.data.data.receipt);
  };

  return (
    <Modal
      opened={opened}
      onClose={finish}
      // The next opening starts with the form, not the last receipt (reset once the dialog has gone, not in sight).
      onExitTransitionEnd={() => setReceipt(null)}
      title={t('reports.form.title')}
      centered
      fullScreen={!!phone}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {receipt ? (
        <Stack gap="md">
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck size={18} aria-hidden />}
            role="status"
            title={t('reports.form.thanks')}
          >
            <Text size="sm">{t('reports.form.receiptIntro')}</Text>
            <Text fw={700} ff="monospace" size="lg" data-testid="report-receipt">
              {receipt}
            </Text>
            <Text size="sm">{contact ? t('reports.form.receiptMailed') : t('reports.form.receiptKeep')}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button onClick={finish}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          ref={form.formRef}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="md">
            <Text size="sm">{t('reports.form.intro')}</Text>
            <FormError message={form.errors._} />
            <Radio.Group
              label={t('reports.form.reason')}
              withAsterisk
              value={reason}
              onChange={(v) => {
                setReason(v);
                form.clearError('reason');
              }}
              error={form.errors.reason}
            >
              <Stack gap={8} mt={6}>
                {REPORT_REASONS.map((r) => (
                  <Radio key={r} value={r} label={t(`reports.reasons.${r}`)} aria-invalid={form.errors.reason ? true : undefined} />
                ))}
              </Stack>
            </Radio.Group>
            <Textarea
              label={t('reports.form.details')}
              description={t('reports.form.detailsHelp')}
              withAsterisk
              autosize
              minRows={3}
              maxRows={8}
              maxLength={REPORT_DETAILS_MAX}
              value={details}
              onChange={(e) => {
                setDetails(e.currentTarget.value);
                form.clearError('details');
              }}
              error={form.errors.details}
            />
            <TextInput
              label={t('reports.form.contact')}
              description={t('reports.form.contactHelp')}
              autoComplete="email"
              value={contact}
              onChange={(e) => {
                setContact(e.currentTarget.value);
                form.clearError('contact');
              }}
              error={form.errors.contact}
            />
            {/* Honeypot: hidden from people and assistive technology; automated senders fill it. */}
            <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
              <label>
                Website
                <input
                  tabIndex={-1}
                  autoComplete="off"
                  value={website}
                  onChange={(e) => setWebsite(e.currentTarget.value)}
                  name="website"
                />
              </label>
            </div>
            <Text size="xs" c="dimmed">
              {t('reports.form.privacy')}{' '}
              <Anchor href={`/${lng}/legal/privacy-policy`} target="_blank" size="xs" underline="always">
                {t('reports.form.privacyLink')}
              </Anchor>
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={finish}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" color="red" loading={form.pending} leftSection={<IconFlag size={16} aria-hidden />}>
                {t('reports.form.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
