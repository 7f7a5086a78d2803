/** Profile/Publicist edit: the trader details, saved with the version they were read at. */
import { Container, Paper, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Navigate, useNavigate } from '#src/lib/router.tsx';
import type { PublicistProfile } from '#contract/publicists.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { PUBLICIST_PROFILE_KEY, publicistProfileQueryOptions, updatePublicistProfile } from '../api/publicist-api.ts';
import { TraderForm, traderValues } from '../components/trader-form.tsx';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { LoadError } from '../components/publicist-status.tsx';
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
