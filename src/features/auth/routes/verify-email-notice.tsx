import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Trans, useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { dashboardFor } from '#contract/roles.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { isVerified, profileToCreate, useCurrentUser } from '#src/lib/session.ts';

/** "Verify your e-mail" (`verify-email`), for logged-in users who have not clicked the link yet; behind RequireAuth. */
export function VerifyEmailNoticeRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.verifyNotice.title'));
  const lng = useLng();
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoader />;

  if (isVerified(user)) {
    const next = profileToCreate(user) ?? dashboardFor(user.role);
    return (
      <CenteredCard title={t('auth.verifyNotice.heading')}>
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />}>
          {t('auth.verifyNotice.alreadyVerified')}
        </Alert>
        <Button component={Link} to={withLng(lng, next)}>
          {profileToCreate(user) ? t('auth.verify.createProfile') : t('account.menu.dashboard')}
        </Button>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard title={t('auth.verifyNotice.heading')}>
      <Stack gap="sm">
        <Text>
          <Trans
            i18nKey="auth.verifyNotice.text"
            values={{ email: user.email }}
            components={{ strong: <strong style={{ wordBreak: 'break-all' }} /> }}
          />
        </Text>
        <Text size="sm">{t('auth.verifyNotice.hint')}</Text>
      </Stack>
      <ResendVerificationButton fullWidth />
      <Button component={Link} to={withLng(lng, dashboardFor(user.role))} variant="subtle">
        {t('account.menu.dashboard')}
      </Button>
    </CenteredCard>
  );
}
