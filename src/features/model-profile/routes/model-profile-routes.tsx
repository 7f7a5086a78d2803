import { Alert, Button, Container, Group, Paper, SimpleGrid, Skeleton, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate, useNavigate, useSearchParams } from '#src/lib/router.tsx';
import { ageOn, type ModelProfile } from '#contract/profiles.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { PhotoUploader, type ParkedPhoto } from '#src/components/photo-uploader/photo-uploader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { isVerified, useCurrentUser } from '#src/lib/session.ts';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { discard } from '#src/offline/outbox.ts';
import { queuePhotoUpload } from '#src/offline/photo-upload.ts';
import { useOutboxOps } from '#src/offline/use-outbox.ts';
import { createModelWithAd, MODEL_PROFILE_KEY, modelProfileQueryOptions, updateModelWithAd } from '../api/model-profile-api.ts';
import { AdActions } from '../components/ad-actions.tsx';
import { EMPTY_MODEL_AD, modelAdValues } from '#src/components/model-ad-form/model-ad-values.ts';
import { ModelProfileForm, type FormValues } from '../components/model-profile-form.tsx';
import { StatusCard } from '../components/status-card.tsx';
import { listingGap } from '../lib/listing-gap.ts';
import { MODEL_PATHS } from '../lib/model-paths.ts';
import { OWN_MODEL_AD, queueableModelAdUpdate } from '#src/components/model-ad-form/model-ad-writes.ts';
import { formatPhone } from '../lib/phone.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

/** Data from before this screen opened (a restored copy) while the answer asked for now is on its way. */
const restoredCopyRefreshing = (q: { isFetching: boolean; isFetchedAfterMount: boolean }) => q.isFetching && !q.isFetchedAfterMount;

function Loading() {
  return (
    <Stack gap="md" aria-busy="true">
      <Skeleton height={72} radius="lg" />
      <Skeleton height={160} radius="lg" />
    </Stack>
  );
}

/**
 * The status card and the ad's actions: Profile/Model index and the model dashboard show the same summary. The
 * dashboard has its own "create your profile" card (account/dashboard-view.tsx), so there it shows no second one for
 * a model without a profile (`noneCard={false}`, issue 24 D: two identical «Crear perfil» cards).
 */
export function ModelProfileSummary({ noneCard = true }: { noneCard?: boolean }) {
  const { t } = useTranslation();
  const lng = useLng();
  const profile = useQuery(modelProfileQueryOptions());
  if (profile.isPending) return <Loading />;
  if (failedWithNothingSaved(profile)) {
    return (
      <Paper withBorder p="lg" radius="lg">
        <Group justify="space-between">
          <Text>{t('modelProfile.loadError')}</Text>
          <Button variant="light" onClick={() => void profile.refetch()}>
            {t('common.retry')}
          </Button>
        </Group>
      </Paper>
    );
  }
  const p = profile.data;
  if (!p) {
    if (!noneCard) return null;
    return (
      <Paper withBorder p="lg" radius="lg">
        <Stack gap="xs" align="flex-start">
          <Title order={2} size="h4">
            {t('modelProfile.none.title')}
          </Title>
          <Text size="sm">{t('modelProfile.none.text')}</Text>
          <Button component={Link} to={withLng(lng, MODEL_PATHS.create)} leftSection={<IconUserPlus size={16} aria-hidden />}>
            {t('modelProfile.none.button')}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return (
    <Stack gap="md">
      <StatusCard profile={p} verifyTo={withLng(lng, MODEL_PATHS.verify)} />
      <ProfileInformation profile={p} />
      {p.ad ? (
        <AdActions
          editScope={OWN_MODEL_AD.editScope(p.id)}
          ad={p.ad}
          name={p.display_name}
          editTo={withLng(lng, MODEL_PATHS.edit)}
          photosTo={withLng(lng, MODEL_PATHS.photos(p.user?.id ?? 0, p.ad.id))}
          gap={listingGap(p)}
          verifyTo={withLng(lng, MODEL_PATHS.verify)}
        />
      ) : (
        <Button component={Link} to={withLng(lng, MODEL_PATHS.edit)} variant="light">
          {t('modelProfile.ad.createMissing')}
        </Button>
      )}
    </Stack>
  );
}

/** Profile/Model Information: what visitors are told about the model (the birth date itself is never shown). */
function ProfileInformation({ profile: p }: { profile: ModelProfile }) {
  const { t } = useTranslation();
  // A phone number is read as one: never broken across lines (issue 24 D, it wrapped at 360 px).
  const rows: [string, string, boolean?][] = [
    [t('modelProfile.fields.display_name'), p.display_name],
    [t('modelProfile.info.age'), p.birth_date ? String(ageOn(p.birth_date)) : '—'],
    [t('modelProfile.fields.phone'), p.phone ? formatPhone(p.phone) : '—', true],
    [t('modelProfile.info.whatsapp'), p.whatsapp ? t('common.yes') : t('common.no')],
    ...(p.ad ? ([[t('modelProfile.fields.city_id'), `${p.ad.city}, ${p.ad.state}`]] as [string, string][]) : []),
  ];
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={2} size="h4" mb="sm">
        {t('modelProfile.info.title')}
      </Title>
      {/* Two columns from 568 px: at 360 px (the `xs` breakpoint) a column is too narrow for a phone number or a city. */}
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing={4} verticalSpacing={4} m={0}>
        {rows.map(([label, value, nowrap]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={nowrap ? { whiteSpace: 'nowrap' } : undefined}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** Profile/Model index (`profile/model`): the model's own profile at a glance. */
export function ModelProfileIndexRoute() {
  const { t } = useTranslation();
  usePageTitle(t('modelProfile.index.title'));
  return (
    <Container size={760} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('modelProfile.index.heading')}</Title>
        <ModelProfileSummary />
      </Stack>
    </Container>
  );
}

/**
 * Profile/Model Create (`profile/model/create`): the multi-step form, then the photos of the new ad (the ad is
 * created first, so the photos have somewhere to go and survive a dropped connection one by one).
 */
export function ModelProfileCreateRoute() {
  const { t } = useTranslation();
  usePageTitle(t('modelProfile.create.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const existing = useQuery(modelProfileQueryOptions());
  const [created, setCreated] = useState<ModelProfile | null>(null);
  // The photo step is in the URL (`?step=photos`): a reload there comes back to it, with the ad just created, instead
  // of landing on "Mi perfil" (the profile now exists, which otherwise sends this screen to the index).
  const [params, setParams] = useSearchParams();
  const photoStep = params.get('step') === 'photos';
  const withAd = created ?? (photoStep && existing.data?.ad ? existing.data : null);
  // Offline, a photo is kept in the outbox and uploaded once the network returns, as on the Photos screen.
  const userId = user?.id;
  const park = useCallback(
    (photo: ParkedPhoto) =>
      userId === undefined
        ? Promise.reject(new Error('no user'))
        : queuePhotoUpload(userId, photo, [['ad-photos', photo.adId], [...MODEL_PROFILE_KEY], ['model-images', String(photo.adId)]]),
    [userId],
  );

  if (!user || existing.isPending || restoredCopyRefreshing(existing)) return <PageLoader />;
  if (existing.data && !withAd) return <Navigate to={withLng(lng, MODEL_PATHS.index)} replace />;
  if (!isVerified(user)) {
    return (
      <Container size={760} py="lg" px="md">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('profileCreate.unverifiedTitle')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('profileCreate.unverifiedText')}</Text>
            <ResendVerificationButton size="sm" color="orange" />
          </Stack>
        </Alert>
      </Container>
    );
  }

  const finish = () => void navigate(withLng(lng, MODEL_PATHS.index));

  return (
    <Container size={760} py="lg" px="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('modelProfile.create.heading')}</Title>
          <Text mt={4}>{t('modelProfile.create.intro')}</Text>
        </div>
        {withAd?.ad ? (
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="md">
              <Stepper active={4} size="sm" visibleFrom="sm" aria-label={t('modelProfile.stepsLabel')}>
                {(['personal', 'contact', 'location', 'ad', 'photos'] as const).map((k) => (
                  <Stepper.Step key={k} label={t(`modelProfile.steps.${k}`)} />
                ))}
              </Stepper>
              <Title order={2} size="h3">
                {t('modelProfile.steps.photos')}
              </Title>
              <Text size="sm">{t('modelProfile.create.photosIntro')}</Text>
              <PhotoUploader
                adId={withAd.ad.id}
                onUploaded={() => void queryClient.invalidateQueries({ queryKey: MODEL_PROFILE_KEY })}
                park={park}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={finish}>
                  {t('modelProfile.create.finish')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        ) : (
          <ModelProfileForm
            mode="create"
            draftKey={`vitrina:model-profile:create:${user.id}`}
            initial={EMPTY_MODEL_AD}
            submit={(values) => createModelWithAd(values).then((sent) => ({ sent }))}
            onSaved={(profile) => {
              setCreated(profile);
              queryClient.setQueryData(MODEL_PROFILE_KEY, profile);
              setParams({ step: 'photos' }, { replace: true });
            }}
            finalStep={{ label: t('modelProfile.steps.photos'), description: '' }}
            submitLabel={t('modelProfile.create.submit')}
          />
        )}
      </Stack>
    </Container>
  );
}

/** Profile/Model Update (`profile/model/edit`). */
export function ModelProfileEditRoute() {
  const { t } = useTranslation();
  usePageTitle(t('modelProfile.edit.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(modelProfileQueryOptions());
  const { data: user } = useCurrentUser();
  const queuedOps = useOutboxOps(user?.id);
  // A copy restored from the device (persisted queries) may predate the last save: online, the form starts from the
  // answer asked for now; offline the fetch ends at once and the copy is what there is.
  if (profile.isPending || restoredCopyRefreshing(profile) || queuedOps === undefined) return <PageLoader />;
  if (!profile.data) return <Navigate to={withLng(lng, MODEL_PATHS.create)} replace />;
  const p = profile.data;
  // The last queued edit of this profile not yet in flight: the form works on it (its values, errors, the saved record).
  const queuedEdit = queuedOps.filter((o) => o.scope === OWN_MODEL_AD.editScope(p.id) && o.status !== 'sending').at(-1);
  const queuedValues = queuedEdit?.meta?.values as FormValues | undefined;
  return (
    <Container size={760} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('modelProfile.edit.heading')}</Title>
        <ModelProfileForm
          // A new version from elsewhere starts a fresh form (the draft keeps the user's own edits).
          key={`${p.id}:${queuedEdit?.id ?? ''}:${queuedEdit?.status ?? ''}`}
          mode="edit"
          draftKey={`vitrina:model-profile:edit:${p.id}`}
          initial={queuedValues ?? modelAdValues(p)}
          version={queuedEdit?.baseVersion ?? p.version}
          queued={queuedEdit}
          dropQueued={async () => {
            if (queuedEdit) await discard(queuedEdit.id);
          }}
          submit={async (values, version, formValues) => {
            const body = { ...values, version: version ?? p.version };
            if (!user) return { sent: await updateModelWithAd(p.id, body) };
            return queueableModelAdUpdate(
              OWN_MODEL_AD,
              user.id,
              p,
              body,
              { values: formValues, editPath: withLng(lng, MODEL_PATHS.edit) },
              MODEL_PROFILE_KEY,
            );
          }}
          onQueued={() => void navigate(withLng(lng, MODEL_PATHS.index))}
          onSaved={(saved) => {
            queryClient.setQueryData(MODEL_PROFILE_KEY, saved);
            void navigate(withLng(lng, MODEL_PATHS.index));
          }}
          submitLabel={t('modelProfile.edit.submit')}
        />
      </Stack>
    </Container>
  );
}
