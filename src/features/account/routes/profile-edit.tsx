import { Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { PushSettings } from '#src/components/push-settings/push-settings.tsx';
import { DataExportSection } from '../components/data-export-section.tsx';
import { ProfileSection } from '../components/profile-section.tsx';
import { DeleteAccountSection } from '../components/delete-account-section.tsx';
import { ProfileInformationForm } from '../components/profile-information-form.tsx';
import { UpdatePasswordForm } from '../components/update-password-form.tsx';

/** Profile Edit (`profile`), in four parts: profile information, password update, the data export, account deletion. */
export function ProfileEditRoute() {
  const { t } = useTranslation();
  usePageTitle(t('account.profile.title'));
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoader />;
  return (
    <Container size={720} py="lg" px="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('account.profile.heading')}</Title>
          <Text mt={4}>{t('account.profile.intro')}</Text>
        </div>
        <ProfileInformationForm key={`${user.id}-${user.email}-${user.name}`} user={user} />
        <UpdatePasswordForm user={user} />
        <ProfileSection id="push" title={t('push.heading')} intro={t('push.intro')}>
          <PushSettings role={user.role} />
        </ProfileSection>
        <DataExportSection />
        <DeleteAccountSection user={user} />
      </Stack>
    </Container>
  );
}
