/** Staff: one notice, what it says about the ad, and its decision (the form while open). */
import { Alert, Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams } from '#src/lib/router.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { useLng } from '#src/lib/paths.ts';
import { reportOptions } from '../api/notices-api.ts';
import { DateTime, OutcomeBadge, ReasonBadges, StaffPage } from '../components/notices-ui.tsx';
import { adOf } from '../components/ad-summary.tsx';
import { DecisionForm } from '../components/report-decision-form.tsx';
import { Field } from '../components/report-field.tsx';

export function ReportShowRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ ...reportOptions(id), enabled: valid });
  const r = query.data;
  const ad = r ? adOf(r) : null;
  return (
    <StaffPage
      title={t('notices.report.title', { id: valid ? id : '' })}
      back={{ to: `/${lng}/admin/reports`, label: t('notices.report.back') }}
    >
      {valid && query.isPending ? (
        <Stack gap="md" aria-busy="true">
          <VisuallyHidden role="status">{t('common.loading')}</VisuallyHidden>
          <Skeleton height={140} radius="lg" />
          <Skeleton height={220} radius="lg" />
        </Stack>
      ) : !r ? (
        <Alert color="red">
          {query.error instanceof ApiError && query.error.status !== 404 ? t('notices.list.error') : t('notices.report.notFound')}
        </Alert>
      ) : (
        <>
          <Group gap="xs">
            <ReasonBadges report={r} />
            <OutcomeBadge status={r.status} />
          </Group>
          {r.escalate ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} aria-hidden />}
              title={t('notices.report.escalateTitle')}
              data-testid="escalate-alert"
            >
              {t('notices.report.escalateText')}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="ad-heading">
              <Title order={2} size="h4" id="ad-heading" mb="sm">
                {t('notices.report.ad')}
              </Title>
              <Stack gap="sm" component="dl" m={0}>
                <Field label={t('notices.report.adTitle')}>{ad?.title ?? t('notices.report.adGone')}</Field>
                <Field label={t('notices.report.model')}>{ad?.model ?? '—'}</Field>
                <Field label={t('notices.report.city')}>{ad?.city ?? '—'}</Field>
              </Stack>
              {r.ad_id ? (
                <Group gap="md" mt="md">
                  <Anchor component={Link} to={`/${lng}/models/${r.ad_id}`} target="_blank" rel="noopener">
                    <Group gap={4} component="span" wrap="nowrap">
                      {t('notices.report.viewAd')}
                      <IconExternalLink size={14} aria-label={t('notices.newTab')} />
                    </Group>
                  </Anchor>
                  <Anchor
                    component={Link}
                    to={`/${lng}/admin/review/ads?${new URLSearchParams({ status: 'all', search: ad?.title ?? String(r.ad_id) }).toString()}`}
                  >
                    {t('notices.report.reviewAd')}
                  </Anchor>
                </Group>
              ) : null}
              <Text size="xs" c="dimmed" mt="sm">
                {t('notices.report.snapshot')}
              </Text>
            </Paper>
            <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="notice-heading">
              <Title order={2} size="h4" id="notice-heading" mb="sm">
                {t('notices.report.notice')}
              </Title>
              <Stack gap="sm" component="dl" m={0}>
                <Field label={t('notices.report.details')}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{r.details}</span>
                </Field>
                <Field label={t('notices.report.contact')}>
                  {r.contact ? (
                    r.contact.includes('@') ? (
                      <Anchor href={`mailto:${r.contact}`}>{r.contact}</Anchor>
                    ) : (
                      <Anchor href={`tel:${r.contact.replace(/[^\d+]/g, '')}`}>{r.contact}</Anchor>
                    )
                  ) : (
                    t('notices.report.anonymous')
                  )}
                </Field>
                <Field label={t('notices.report.account')}>
                  {r.signed_in ? t('notices.report.signedIn') : t('notices.report.visitor')}
                </Field>
                <Field label={t('notices.report.language')}>{t(`languages.${r.language}`, { defaultValue: r.language })}</Field>
                <Field label={t('notices.report.receipt')}>
                  <Text component="span" ff="monospace" fw={700} data-testid="report-receipt-staff">
                    {r.receipt}
                  </Text>
                </Field>
                <Field label={t('notices.report.received')}>
                  <DateTime value={r.created_at} />
                </Field>
              </Stack>
            </Paper>
          </SimpleGrid>
          {r.status === 'open' ? (
            <DecisionForm report={r} />
          ) : (
            <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="decided-heading" data-testid="report-decided">
              <Title order={2} size="h3" id="decided-heading" mb="sm">
                {t('notices.decision.decidedHeading')}
              </Title>
              <Stack gap="sm" component="dl" m={0}>
                <Field label={t('notices.decision.outcome')}>
                  <OutcomeBadge status={r.status} />
                </Field>
                <Field label={t('notices.decision.text')}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{r.decision_text ?? '—'}</span>
                </Field>
                <Field label={t('notices.decision.decidedAt')}>
                  <DateTime value={r.decided_at} />
                </Field>
              </Stack>
            </Paper>
          )}
        </>
      )}
    </StaffPage>
  );
}
