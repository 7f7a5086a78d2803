/** Review queues: new and edited ads, photos (riskiest first), verification requests, appeals. */
import { API } from '#contract/routes.ts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APPEAL_FILTERS, appealDecisionSchema, PHOTO_FILTERS, VERIFICATION_FILTERS } from '#contract/admin.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import {
  ADMIN_KEY,
  adminListOptions,
  decideAppeal,
  type AdminAd,
  type AdminAppeal,
  type AdminVerification,
  type RecentPhoto,
} from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { actionsFrom, DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { PrivateImage } from '../components/private-image.tsx';
import { PhotoReviewRequests } from '../components/photo-review-requests.tsx';
import { PhotoThumb } from '../components/photo-thumb.tsx';
import { WRAPPING_BADGE } from '../components/wrapping-badge.ts';
import { statusOptions } from './admin-lists.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

function Empty({ loading, error, empty }: { loading: boolean; error: boolean; empty: boolean }) {
  const { t } = useTranslation();
  if (error) return <Alert color="red">{t('admin.list.error')}</Alert>;
  if (loading) return <Skeleton height={200} radius="md" />;
  if (empty) return <Text c="dimmed">{t('admin.list.empty')}</Text>;
  return null;
}

function AdCard({ ad, onDecide }: { ad: AdminAd; onDecide: (t: DecisionTarget) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {ad.title}
          </Title>
          <Group gap={6}>
            <StatusBadge status={ad.status} />
            <Badge variant="outline" color="gray" tt="none" classNames={WRAPPING_BADGE}>
              {ad.edited ? t('admin.ads.edited') : t('admin.ads.new')}
            </Badge>
            <Badge variant="light" color={ad.is_listed ? 'teal' : 'gray'} tt="none" classNames={WRAPPING_BADGE}>
              {ad.is_listed ? t('admin.ads.listed') : t('admin.ads.notListed')}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('admin.ads.profile', { name: ad.profile.display_name, status: t(`statuses.${ad.profile.status}`) })} ·{' '}
          {t('admin.ads.place', { section: ad.section.name, city: ad.city })}
          {ad.is_active ? '' : ` · ${t('admin.ads.off')}`}
        </Text>
        {ad.publicist ? (
          // A publicist's model: whose agency it is, and whether the model has consented to the listing yet.
          <Group gap={6} data-testid="ad-agency">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('admin.ads.agency', { name: ad.publicist.display_name })}
            </Text>
            <Badge variant="light" color={ad.profile.consent_status === 'given' ? 'teal' : 'yellow'} tt="none" classNames={WRAPPING_BADGE}>
              {t('admin.ads.consent', {
                status: t(`admin.consent.${ad.profile.consent_status}`, { defaultValue: ad.profile.consent_status }),
              })}
            </Badge>
          </Group>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {ad.description}
        </Text>
        <Text size="sm" fw={600}>
          {t('admin.ads.photos')}
        </Text>
        {ad.photos.length ? (
          <Group gap="sm">
            {ad.photos.map((p) => (
              <PhotoThumb key={p.media_id} photo={p} alt={t('admin.photos.alt', { title: ad.title })} />
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.ads.noPhotos')}
          </Text>
        )}
        <DecisionButtons subjectType="ad" subjectId={ad.id} name={ad.title} actions={actionsFrom('ad', ad.status)} onDecide={onDecide} />
      </Stack>
    </Paper>
  );
}

export function AdminReviewAdsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending');
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(adminListOptions<AdminAd>(API.adminAds, params));
  return (
    <AdminPage title={t('admin.ads.title')} heading={t('admin.ads.heading')}>
      <ListFilters params={params} update={update} statuses={statusOptions(t)} />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <Stack gap="md">
        {data?.data.map((ad) => (
          <AdCard key={ad.id} ad={ad} onDecide={setTarget} />
        ))}
      </Stack>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

export function AdminReviewPhotosRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', PHOTO_FILTERS);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<RecentPhoto>(API.adminPhotos, { status: params.status, page: params.page }),
  );
  return (
    <AdminPage title={t('admin.photos.title')} heading={t('admin.photos.heading')}>
      <Text size="sm" c="dimmed">
        {t('admin.photos.intro')}
      </Text>
      <PhotoReviewRequests />
      <ListFilters
        params={params}
        update={update}
        searchable={false}
        statuses={PHOTO_FILTERS.map((s): [string, string] => [s, t(`admin.photoFilters.${s}`)])}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data?.data.map((p) => (
          <Paper key={p.media_id} withBorder p="xs" radius="md" component="li" data-testid="photo-review-item">
            <Stack gap={6}>
              <PhotoThumb photo={p} alt={t('admin.photos.alt', { title: p.ad.title })} />
              <Text size="xs" lineClamp={2}>
                {p.ad.title}
              </Text>
              <Text size="xs" c="dimmed">
                <DateText value={p.created_at} />
              </Text>
              {p.reviewed_at ? (
                <Badge color="teal" variant="light" size="sm">
                  {t('admin.photos.reviewed')}
                </Badge>
              ) : null}
              <DecisionButtons
                subjectType="media"
                subjectId={p.media_id}
                name={`${p.ad.title} #${p.media_id}`}
                actions={p.reviewed_at ? ['remove'] : ['approve', 'remove']}
                onDecide={setTarget}
              />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

export function AdminReviewVerificationsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', VERIFICATION_FILTERS);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminVerification>(API.adminVerifications, { status: params.status, page: params.page }),
  );
  return (
    <AdminPage title={t('admin.verifications.title')} heading={t('admin.verifications.heading')}>
      <ListFilters
        params={params}
        update={update}
        searchable={false}
        statuses={VERIFICATION_FILTERS.map((s): [string, string] => [s, t(`admin.verificationFilters.${s}`)])}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <Stack gap="md">
        {data?.data.map((v) => (
          <Paper key={v.id} withBorder p="md" radius="md" component="article" aria-label={v.profile.display_name}>
            <Stack gap="sm">
              <Group justify="space-between" gap="xs">
                <Title order={2} size="h4">
                  {v.profile.display_name}
                </Title>
                <Group gap={6}>
                  <StatusBadge status={v.status} label={t(`statuses.${v.status === 'approved' ? 'active' : v.status}`)} />
                  <Badge variant="outline" color="gray" tt="none" classNames={WRAPPING_BADGE}>
                    {t('admin.verifications.code', { code: v.code })}
                  </Badge>
                </Group>
              </Group>
              <Text size="sm" c="dimmed">
                {t('admin.verifications.submitted')}: <DateText value={v.submitted_at} />
              </Text>
              <Group align="flex-start" gap="lg">
                {v.selfie_url ? (
                  <PrivateImage
                    url={v.selfie_url}
                    alt={t('admin.verifications.selfie', { name: v.profile.display_name })}
                    unavailable={t('admin.verifications.noSelfie')}
                    w={220}
                    h={275}
                    fit="cover"
                  />
                ) : (
                  <Text c="dimmed">{t('admin.verifications.noSelfie')}</Text>
                )}
                <Stack gap={4}>
                  <Text size="sm" fw={600}>
                    {t('admin.verifications.profilePhotos')}
                  </Text>
                  <Group gap="sm">
                    {v.photos.length ? (
                      v.photos.map((p) => (
                        <PhotoThumb key={p.media_id} photo={p} alt={t('admin.photos.alt', { title: v.profile.display_name })} />
                      ))
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('admin.ads.noPhotos')}
                      </Text>
                    )}
                  </Group>
                </Stack>
              </Group>
              <DecisionButtons
                subjectType="verification"
                subjectId={v.id}
                name={v.profile.display_name}
                actions={v.status === 'pending' ? ['approve', 'reject'] : []}
                onDecide={setTarget}
              />
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

const APPEAL_FIELDS = ['text', 'outcome'] as const;

function AppealDialog({ target, onClose }: { target: { id: number; outcome: 'upheld' | 'reversed' } | null; onClose: () => void }) {
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

export function AdminAppealsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', APPEAL_FILTERS);
  // Four labels side by side need ~400 px: below `sm` the filter stacks them (full width) so nothing is cut off at 360 px.
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [target, setTarget] = useState<{ id: number; outcome: 'upheld' | 'reversed' } | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminAppeal>(API.adminAppeals, { status: params.status, page: params.page }),
  );
  return (
    <AdminPage title={t('admin.appeals.title')} heading={t('admin.appeals.heading')}>
      <SegmentedControl
        aria-label={t('admin.filters.status')}
        value={params.status}
        onChange={(status) => update({ status })}
        data={APPEAL_FILTERS.map((s) => ({ value: s, label: t(`admin.appealFilters.${s}`) }))}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth
        maw={520}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <Stack gap="md">
        {data?.data.map((a) => {
          const s = a.statement;
          const name = `${t(`statements.subjects.${s.subject_type}`)}${s.subject_label ? ` «${s.subject_label}»` : ''}`;
          return (
            <Paper key={a.id} withBorder p="md" radius="md" component="article" aria-label={name}>
              <Stack gap="xs">
                <Group justify="space-between" gap="xs">
                  <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                    {name}
                  </Title>
                  <StatusBadge status={a.status} label={t(`statements.appeal.statuses.${a.status}`)} />
                </Group>
                {a.user ? (
                  <Text size="sm" c="dimmed">
                    {t('admin.appeals.by', { name: a.user.name, email: a.user.email })} · <DateText value={a.created_at} />
                  </Text>
                ) : null}
                <Text size="sm">
                  <strong>{t('admin.appeals.statement')}:</strong> {t(`statements.decisions.${s.decision}`)} —{' '}
                  {t(`statements.grounds.${s.ground}`)}. {s.facts}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  <strong>{t('admin.appeals.text')}:</strong> {a.text}
                </Text>
                {a.decision_text ? (
                  <Text size="sm">
                    <strong>{t('admin.appeals.decided')}:</strong> {a.decision_text}
                  </Text>
                ) : null}
                {a.status === 'pending' ? (
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setTarget({ id: a.id, outcome: 'upheld' })}
                      aria-label={`${t('admin.appeals.uphold')}: ${name}`}
                    >
                      {t('admin.appeals.uphold')}
                    </Button>
                    <Button
                      size="xs"
                      color="teal"
                      onClick={() => setTarget({ id: a.id, outcome: 'reversed' })}
                      aria-label={`${t('admin.appeals.reverse')}: ${name}`}
                    >
                      {t('admin.appeals.reverse')}
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <AppealDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}
