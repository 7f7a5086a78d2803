/** The publicist's new models: one or several at once. */
import { Container, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Navigate, useNavigate } from '#src/lib/router.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { createModels, PUBLICIST_KEY, publicistProfileQueryOptions } from '../api/publicist-api.ts';
import { CreateModelsForm } from '../components/model-form.tsx';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';

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
