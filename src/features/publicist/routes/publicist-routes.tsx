/**
 * The publicist's workspace (issue 6): the dashboard summary, Profile/Publicist index (trader details and the models
 * under responsibility), Profile/Publicist Create and edit (trader details, EU DSA art. 30), and the models' create and
 * edit screens.
 */
import { Alert, Button, Container, Group, List, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconEdit, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { PublicistProfile } from '#contract/publicists.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { isVerified, useCurrentUser, useEndSession } from '#src/lib/session.ts';
import { discard } from '#src/offline/outbox.ts';
import { useOutboxOps } from '#src/offline/use-outbox.ts';
import {
  createModels,
  createPublicistProfile,
  PUBLICIST_KEY,
  PUBLICIST_PROFILE_KEY,
  publicistModelQueryOptions,
  publicistProfileQueryOptions,
  updateModel,
  updatePublicistProfile,
} from '../api/publicist-api.ts';
import { CreateModelsForm, EditModelForm } from '../components/model-form.tsx';
import { ModelList } from '../components/model-list.tsx';
import { EMPTY_TRADER, TraderForm, traderValues } from '../components/trader-form.tsx';
import { MANAGED_MODEL_AD, queueableModelAdUpdate } from '#src/components/model-ad-form/model-ad-writes.ts';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const STATUS_COLORS: Record<string, string> = {
  active: 'teal',
  pending: 'blue',
  unverified: 'gray',
  paused: 'gray',
  rejected: 'red',
  suspended: 'red',
};

function Loading() {
  return (
    <Stack gap="md" aria-busy="true">
      <Skeleton height={72} radius="lg" />
      <Skeleton height={160} radius="lg" />
    </Stack>
  );
}

function LoadError({ onRetry, text }: { onRetry: () => void; text: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="lg">
      <Group justify="space-between">
        <Text>{text}</Text>
        <Button variant="light" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Paper>
  );
}

/** The profile's review state with the staff's reasons when restricted. */
function StatusCard({ profile }: { profile: PublicistProfile }) {
  const { t } = useTranslation();
  const restricted = profile.status === 'rejected' || profile.status === 'suspended';
  return (
    <Alert
      color={STATUS_COLORS[profile.status]}
      variant="light"
      icon={restricted ? <IconAlertTriangle size={18} aria-hidden /> : <IconCircleCheck size={18} aria-hidden />}
      title={t('publicist.statusTitle', { status: t(`statuses.${profile.status}`) })}
    >
      <Stack gap={4}>
        <Text size="sm">{t(`publicist.status.${profile.status}`)}</Text>
        {profile.reasons && (profile.reasons.codes.length || profile.reasons.text) ? (
          <div>
            <Text size="sm" fw={600}>
              {t('publicist.reasons')}
            </Text>
            <List size="sm">
              {profile.reasons.codes.map((c) => (
                <List.Item key={c}>{t([`statements.grounds.${c}`, `modelProfile.reasons.${c}`], { defaultValue: c })}</List.Item>
              ))}
              {profile.reasons.text ? <List.Item>{profile.reasons.text}</List.Item> : null}
            </List>
          </div>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The dashboard's publicist part: status, how many models, and the way to them. Nothing without a profile. */
export function PublicistSummary() {
  const { t } = useTranslation();
  const lng = useLng();
  const profile = useQuery(publicistProfileQueryOptions());
  if (profile.isPending) return <Loading />;
  if (failedWithNothingSaved(profile)) return <LoadError text={t('publicist.summary.loadError')} onRetry={() => void profile.refetch()} />;
  const p = profile.data;
  // The account dashboard already shows the "create your profile" call.
  if (!p) return null;
  return (
    <Stack gap="md">
      <StatusCard profile={p} />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('publicist.summary.title')}: {p.display_name}
          </Title>
          <Text>{t('publicist.summary.models', { count: p.models })}</Text>
          <Group gap="xs">
            <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.index)} leftSection={<IconUsers size={16} aria-hidden />}>
              {t('publicist.summary.manage')}
            </Button>
            <Button
              component={Link}
              to={withLng(lng, PUBLICIST_PATHS.modelCreate)}
              variant="light"
              leftSection={<IconUserPlus size={16} aria-hidden />}
            >
              {t('publicist.summary.add')}
            </Button>
            <Button
              component={Link}
              to={withLng(lng, PUBLICIST_PATHS.edit)}
              variant="subtle"
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('publicist.summary.editProfile')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

function TraderDetails({ profile: p }: { profile: PublicistProfile }) {
  const { t } = useTranslation();
  const lng = useLng();
  const rows: [string, string][] = [
    [t('publicist.profile.fields.display_name'), p.display_name],
    [t('publicist.profile.fields.legal_name'), p.legal_name ?? '—'],
    [t('publicist.profile.fields.tax_id'), p.tax_id ?? '—'],
    [t('publicist.profile.fields.address'), p.address ?? '—'],
    [t('publicist.profile.fields.phone'), p.phone ?? '—'],
    [t('publicist.profile.fields.email'), p.email ?? '—'],
  ];
  return (
    <Paper withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('publicist.index.details')}
        </Title>
        <Button
          component={Link}
          to={withLng(lng, PUBLICIST_PATHS.edit)}
          variant="light"
          size="xs"
          leftSection={<IconEdit size={14} aria-hidden />}
        >
          {t('publicist.index.edit')}
        </Button>
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={4} m={0}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** Profile/Publicist index (`profile/publicist`): trader details and the models under responsibility. */
export function PublicistIndexRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.index.title'));
  const lng = useLng();
  const profile = useQuery(publicistProfileQueryOptions());
  if (profile.isPending) {
    return (
      <Container size={860} py="lg" px="md">
        <Loading />
      </Container>
    );
  }
  if (failedWithNothingSaved(profile)) {
    return (
      <Container size={860} py="lg" px="md">
        <LoadError text={t('publicist.summary.loadError')} onRetry={() => void profile.refetch()} />
      </Container>
    );
  }
  if (!profile.data) return <Navigate to={withLng(lng, PUBLICIST_PATHS.create)} replace />;
  const p = profile.data;
  return (
    <Container size={860} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('publicist.index.title')}</Title>
        <StatusCard profile={p} />
        <TraderDetails profile={p} />
        <Stack gap="sm" component="section" aria-labelledby="publicist-models-heading">
          <Group justify="space-between">
            <Title order={2} size="h3" id="publicist-models-heading">
              {t('publicist.index.models')}
            </Title>
            <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.modelCreate)} leftSection={<IconUserPlus size={16} aria-hidden />}>
              {t('publicist.index.add')}
            </Button>
          </Group>
          <ModelList />
        </Stack>
      </Stack>
    </Container>
  );
}

/**
 * Profile/Publicist Create (`profile/publicist/create`): the agency's trader details. As for every profile (SPEC §2),
 * the server ends the session on success and the answer sends to /login.
 */
export function PublicistProfileCreateRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.profile.createTitle'));
  const lng = useLng();
  const { data: user } = useCurrentUser();
  const endSession = useEndSession();
  const ui = usePresenter();
  if (!user) return <PageLoader />;
  return (
    <Container size={640} py="lg" px="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('publicist.profile.createTitle')}</Title>
          <Text mt={4}>{t('publicist.profile.createIntro')}</Text>
        </div>
        {!isVerified(user) ? (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('profileCreate.unverifiedTitle')}
          >
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('profileCreate.unverifiedText')}</Text>
              <ResendVerificationButton size="sm" color="orange" />
            </Stack>
          </Alert>
        ) : user.has_profile ? (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('publicist.profile.alreadyExists')}</Text>
              <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.index)} size="sm">
                {t('publicist.summary.manage')}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <TraderForm
              initial={EMPTY_TRADER}
              submitLabel={t('publicist.profile.create')}
              note={t('publicist.profile.reloginNote')}
              submit={createPublicistProfile}
              onSaved={async (res) => {
                handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, ui);
                await endSession(withLng(lng, res.data.redirect ?? '/login'));
              }}
            />
          </Paper>
        )}
      </Stack>
    </Container>
  );
}

/** Editing the trader details with the version they were based on. */
export function PublicistProfileEditRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.profile.editTitle'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ui = usePresenter();
  const profile = useQuery(publicistProfileQueryOptions());
  // The version the next save is based on: the loaded one, or the saved one a conflict brought back.
  const version = useRef(0);
  if (profile.isPending) return <PageLoader />;
  if (failedWithNothingSaved(profile)) return <LoadError text={t('publicist.summary.loadError')} onRetry={() => void profile.refetch()} />;
  if (!profile.data) return <Navigate to={withLng(lng, PUBLICIST_PATHS.create)} replace />;
  const p = profile.data;
  version.current = Math.max(version.current, p.version);
  return (
    <Container size={640} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('publicist.profile.editTitle')}</Title>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <TraderForm
            key={p.id}
            initial={traderValues(p)}
            submitLabel={t('publicist.profile.save')}
            submit={(values) => updatePublicistProfile(p.id, { ...values, version: version.current })}
            onConflict={(current) => {
              version.current = current.version;
            }}
            onCancel={() => void navigate(withLng(lng, PUBLICIST_PATHS.index))}
            onSaved={async (res) => {
              handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, ui);
              queryClient.setQueryData(PUBLICIST_PROFILE_KEY, (res.data as { data?: PublicistProfile }).data ?? null);
              await navigate(withLng(lng, PUBLICIST_PATHS.index));
            }}
          />
        </Paper>
      </Stack>
    </Container>
  );
}

/** Add one model or several; then back to the list, where each one's consent state shows. */
export function PublicistModelCreateRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.form.createTitle'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(publicistProfileQueryOptions());
  if (profile.isPending) return <PageLoader />;
  if (profile.data === null) return <Navigate to={withLng(lng, PUBLICIST_PATHS.create)} replace />;
  const back = () => void navigate(withLng(lng, PUBLICIST_PATHS.index));
  return (
    <Container size={860} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('publicist.form.createTitle')}</Title>
        <CreateModelsForm
          submit={createModels}
          onCancel={back}
          onSaved={() => {
            void queryClient.invalidateQueries({ queryKey: PUBLICIST_KEY });
            back();
          }}
        />
      </Stack>
    </Container>
  );
}

/** Edit one model (`publicist/models/{id}/edit`). */
export function PublicistModelEditRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.form.editTitle'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const model = useQuery({ ...publicistModelQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
  const back = () => void navigate(withLng(lng, PUBLICIST_PATHS.index));
  const user = useCurrentUser().data;
  const queuedOps = useOutboxOps(user?.id);
  // The last queued edit of this model not yet in flight (the form works on it; one in flight shows as pending).
  const queuedEdit = queuedOps?.filter((o) => o.scope === MANAGED_MODEL_AD.editScope(id) && o.status !== 'sending').at(-1);
  if (model.isPending && model.fetchStatus !== 'idle') return <PageLoader />;
  if (!model.data) {
    return (
      <Container size={860} py="lg" px="md">
        <LoadError text={t('publicist.form.loadError')} onRetry={() => void model.refetch()} />
      </Container>
    );
  }
  return (
    <Container size={860} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>
          {t('publicist.form.editTitle')}: {model.data.display_name}
        </Title>
        {queuedOps === undefined ? (
          <PageLoader />
        ) : (
          <EditModelForm
            // A queued edit coming back (stale, refused) starts the form from its values; the fresh copy of a model
            // shown from the cache (a newer version) starts it again, so the edit is based on the current version.
            key={`${model.data.id}:${model.data.version}:${queuedEdit?.id ?? ''}:${queuedEdit?.status ?? ''}`}
            model={model.data}
            queued={queuedEdit}
            dropQueued={async () => {
              if (queuedEdit) await discard(queuedEdit.id);
            }}
            submit={(body, formValues) =>
              user
                ? queueableModelAdUpdate(
                    MANAGED_MODEL_AD,
                    user.id,
                    model.data,
                    body,
                    { values: formValues, editPath: withLng(lng, PUBLICIST_PATHS.modelEdit(id)) },
                    PUBLICIST_KEY,
                  )
                : updateModel(id, body).then((sent) => ({ sent }))
            }
            onCancel={back}
            onQueued={back}
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: PUBLICIST_KEY });
              back();
            }}
          />
        )}
      </Stack>
    </Container>
  );
}
