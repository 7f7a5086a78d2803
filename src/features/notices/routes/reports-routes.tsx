/** Staff: the queue of notices about ads (DSA art. 16; urgent ones first and flagged, art. 18) and one notice with its decision. */
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { REPORT_REASONS, REPORT_STATUSES, reportDecisionSchema, type Report } from '#contract/reports.ts';
import { FormError } from '#src/components/form-error.tsx';
import { ApiError, ConflictError } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { useLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { decideReport, NOTICES_KEY, reportOptions, reportsOptions } from '../api/notices-api.ts';
import {
  DateTime,
  isUrgent,
  ListPager,
  ListState,
  OutcomeBadge,
  ReasonBadges,
  StaffPage,
  useUrlFilters,
} from '../components/notices-ui.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const STATUS_FILTERS = ['open', ...REPORT_STATUSES.filter((s) => s !== 'open'), 'all'] as const;
const pick = <T extends string>(value: string, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** What the notice says about the ad (a snapshot taken when it was filed). */
function adOf(r: Report) {
  const a = r.ad ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return { title: str(a.title), model: str(a.model_name), city: str(a.city) };
}

function AdSummary({ report }: { report: Report }) {
  const { t } = useTranslation();
  const ad = adOf(report);
  return (
    <>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {ad.title ?? t('notices.report.adGone')}
      </Text>
      <Text size="sm" c="dimmed">
        {[ad.model, ad.city, report.ad_id ? `#${report.ad_id}` : null].filter(Boolean).join(' · ')}
      </Text>
    </>
  );
}

export function ReportsQueueRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  const { values, page, update } = useUrlFilters({ status: 'open', reason: 'all', escalate: 'all' });
  const status = pick(values.status, STATUS_FILTERS, 'open');
  const reason = pick(values.reason, ['all', ...REPORT_REASONS], 'all');
  const escalate = pick(values.escalate, ['all', '1', '0'], 'all');
  const query = useQuery(
    reportsOptions({ status, reason: reason === 'all' ? undefined : reason, escalate: escalate === 'all' ? undefined : escalate, page }),
  );
  const rows = query.data?.data;
  const link = (r: Report) => `/${lng}/admin/reports/${r.id}`;
  const open = (r: Report) => (
    <Anchor component={Link} to={link(r)} fw={600} data-testid="report-open">
      {t('notices.queue.open', { id: r.id })}
    </Anchor>
  );
  const urgentStyle = (r: Report) =>
    isUrgent(r.reason) && r.status === 'open' ? { borderInlineStart: '4px solid var(--mantine-color-red-8)' } : undefined;
  return (
    <StaffPage title={t('notices.queue.title')} intro={t('notices.queue.intro')}>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm" maw={760} role="group" aria-label={t('notices.filters.label')}>
        <Select
          label={t('notices.filters.status')}
          data={STATUS_FILTERS.map((s) => ({ value: s, label: t(`notices.filters.statuses.${s}`) }))}
          value={status}
          onChange={(v) => update({ status: v ?? 'open' })}
          allowDeselect={false}
        />
        <Select
          label={t('notices.filters.reason')}
          data={[
            { value: 'all', label: t('notices.filters.allReasons') },
            ...REPORT_REASONS.map((r) => ({ value: r, label: t(`reports.reasons.${r}`) })),
          ]}
          value={reason}
          onChange={(v) => update({ reason: v ?? 'all' })}
          allowDeselect={false}
        />
        <Select
          label={t('notices.filters.escalate')}
          data={(['all', '1', '0'] as const).map((v) => ({ value: v, label: t(`notices.filters.escalateOptions.${v}`) }))}
          value={escalate}
          onChange={(v) => update({ escalate: v ?? 'all' })}
          allowDeselect={false}
        />
      </SimpleGrid>
      <ListState
        loading={query.isPending}
        error={failedWithNothingSaved(query)}
        empty={rows?.length === 0}
        emptyText={t('notices.queue.empty')}
      />
      {rows?.length ? (
        <Box aria-busy={query.isPlaceholderData} style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          <Box visibleFrom="sm">
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Caption style={{ captionSide: 'top', textAlign: 'start' }}>
                  <VisuallyHidden>{t('notices.queue.title')}</VisuallyHidden>
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('notices.columns.reason')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.ad')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.received')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.status')}</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>{t('notices.columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.id} data-testid="report-row" style={urgentStyle(r)}>
                      <Table.Td>
                        <ReasonBadges report={r} />
                      </Table.Td>
                      <Table.Td maw={360}>
                        <AdSummary report={r} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          <DateTime value={r.created_at} />
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <OutcomeBadge status={r.status} />
                      </Table.Td>
                      <Table.Td>{open(r)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Box>
          <Stack
            gap="sm"
            hiddenFrom="sm"
            component="ul"
            aria-label={t('notices.queue.title')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {rows.map((r) => (
              <Paper key={r.id} withBorder p="md" radius="md" component="li" data-testid="report-row" style={urgentStyle(r)}>
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs" align="flex-start">
                    <ReasonBadges report={r} />
                    <OutcomeBadge status={r.status} />
                  </Group>
                  <AdSummary report={r} />
                  <Text size="sm" c="dimmed">
                    <DateTime value={r.created_at} />
                  </Text>
                  {open(r)}
                </Stack>
              </Paper>
            ))}
          </Stack>
        </Box>
      ) : null}
      <ListPager meta={query.data?.meta} onChange={(p) => update({ page: p })} />
    </StaffPage>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" fw={600} component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

const FIELDS = ['outcome', 'text'] as const;

function DecisionForm({ report }: { report: Report }) {
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
