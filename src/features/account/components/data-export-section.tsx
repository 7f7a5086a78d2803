import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconFileZip } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { toLocaleTag } from '#contract/languages.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { useLng } from '#src/lib/paths.ts';
import { DATA_EXPORT_KEY, dataExportQueryOptions, requestDataExport } from '../api/account-api.ts';
import { ProfileSection } from './profile-section.tsx';

/** Long labels ("Preparar el archivo con mis datos") wrap at 360 px instead of ending in an ellipsis. */
const WRAP = { root: { height: 'auto', minHeight: 36, paddingBlock: 6 }, label: { whiteSpace: 'normal' as const } };

const NO_FIELDS = [] as const;

function formatSize(bytes: number, locale: string): string {
  const mb = bytes / (1024 * 1024);
  const [value, unit] = mb >= 1 ? [mb, 'megabyte'] : [Math.max(bytes / 1024, 1), 'kilobyte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

/**
 * "Your data" (GDPR arts. 15, 20): asks for an archive of everything held about the user, shows it being prepared
 * (polling the state), then the download link and when it stops working; a failed build can be retried. The state
 * sits in a polite live region, so a screen reader hears "ready" without the focus moving.
 */
export function DataExportSection() {
  const { t } = useTranslation();
  const lng = useLng();
  const locale = toLocaleTag(lng);
  const queryClient = useQueryClient();
  const form = useApiForm(NO_FIELDS);
  const { data, isError, refetch } = useQuery(dataExportQueryOptions());

  const request = async () => {
    const res = await form.run(() => requestDataExport());
    if (res?.data.data) queryClient.setQueryData(DATA_EXPORT_KEY, res.data.data);
  };

  const status = data?.status;
  const requestButton = (label: string, variant: 'filled' | 'default' = 'filled') => (
    <Group>
      <Button
        variant={variant}
        styles={WRAP}
        leftSection={<IconFileZip size={18} aria-hidden />}
        loading={form.pending}
        onClick={() => void request()}
      >
        {label}
      </Button>
    </Group>
  );

  return (
    <ProfileSection id="data-export" title={t('account.profile.dataExport.heading')} intro={t('account.profile.dataExport.intro')}>
      <div role="status" aria-live="polite" data-testid="data-export-state" data-status={status ?? 'loading'}>
        {status === 'pending' ? (
          <Group gap="sm" wrap="nowrap">
            <Loader size="sm" aria-hidden />
            <Text>{t('account.profile.dataExport.pending')}</Text>
          </Group>
        ) : status === 'ready' ? (
          <Text fw={500}>{t('account.profile.dataExport.ready')}</Text>
        ) : status === 'failed' ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />}>
            {t('account.profile.dataExport.failed')}
          </Alert>
        ) : isError ? (
          <Text c="red">{t('account.profile.dataExport.loadError')}</Text>
        ) : null}
      </div>

      {status === 'ready' && data?.download_url ? (
        <Stack gap="xs">
          <Group>
            <Button component="a" href={data.download_url} download styles={WRAP} leftSection={<IconDownload size={18} aria-hidden />}>
              {t('account.profile.dataExport.download', { size: formatSize(data.size_bytes ?? 0, locale) })}
            </Button>
          </Group>
          {data.expires_at ? (
            <Text size="sm">
              {t('account.profile.dataExport.expires', {
                date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(data.expires_at)),
              })}
            </Text>
          ) : null}
        </Stack>
      ) : null}

      {status === 'none'
        ? requestButton(t('account.profile.dataExport.request'))
        : status === 'failed'
          ? requestButton(t('account.profile.dataExport.retry'))
          : status === 'ready'
            ? requestButton(t('account.profile.dataExport.again'), 'default')
            : null}
      {isError && !data ? (
        <Group>
          <Button variant="default" onClick={() => void refetch()}>
            {t('account.profile.dataExport.retry')}
          </Button>
        </Group>
      ) : null}
    </ProfileSection>
  );
}
