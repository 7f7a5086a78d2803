import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFlag, IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { REPORT_EMAIL, reportMailto } from '../lib/contact.ts';

/**
 * "Report this ad". For now the dialog only gives the e-mail address (with a prefilled mailto link naming the
 * ad). TODO(report form): the real report form — reasons, details, POST to the moderation API — arrives with
 * its own issue and replaces the body of this modal; the entry point stays where it is.
 */
export function ReportAd({ adId, adUrl }: { adId: number; adUrl: string }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const mailto = reportMailto(t('model.report.mailSubject', { id: adId }), t('model.report.mailBody', { id: adId, url: adUrl }));

  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        size="compact-sm"
        leftSection={<IconFlag size={16} aria-hidden />}
        onClick={open}
        style={{ alignSelf: 'flex-start' }}
        data-testid="report-ad"
      >
        {t('model.report.open')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('model.report.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm">
          <Text>{t('model.report.soon')}</Text>
          <Text>
            {t('model.report.writeUs')}{' '}
            <Anchor href={mailto} fw={600}>
              {REPORT_EMAIL}
            </Anchor>
          </Text>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close}>
              {t('common.close')}
            </Button>
            <Button component="a" href={mailto} leftSection={<IconMail size={18} aria-hidden />}>
              {t('model.report.sendMail')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
