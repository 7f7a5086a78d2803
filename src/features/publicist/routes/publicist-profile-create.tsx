/** Profile/Publicist Create: the trader details (EU DSA art. 30) a publicist gives before listing models. */
import { Alert, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { isVerified, useCurrentUser, useEndSession } from '#src/lib/session.ts';
import { createPublicistProfile } from '../api/publicist-api.ts';
import { EMPTY_TRADER, TraderForm } from '../components/trader-form.tsx';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';

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
