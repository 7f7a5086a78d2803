import { Alert, Badge, Button, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconUserPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { Role, User } from '#contract/auth.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { isVerified, profileToCreate, useCurrentUser } from '#src/lib/session.ts';

function UnverifiedAlert() {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('dashboards.unverified.title')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('dashboards.unverified.text')}</Text>
        <ResendVerificationButton size="sm" color="orange" />
      </Stack>
    </Alert>
  );
}

function CreateProfileCta({ user, to }: { user: User; to: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  const verified = isVerified(user);
  return (
    <Paper withBorder p="lg" radius="lg">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon size={44} radius="xl" variant="light" visibleFrom="xs">
          <IconUserPlus size={24} aria-hidden />
        </ThemeIcon>
        <Stack gap="xs" align="flex-start" style={{ minWidth: 0 }}>
          <Title order={2} size="h4">
            {t(`dashboards.createProfile.title.${user.role}`)}
          </Title>
          <Text size="sm">{verified ? t(`dashboards.createProfile.text.${user.role}`) : t('dashboards.createProfile.verifyFirst')}</Text>
          {verified ? (
            <Button component={Link} to={withLng(lng, to)}>
              {t('dashboards.createProfile.button')}
            </Button>
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * The dashboards of every role (placeholders until their issues): heading, greeting, role, the "verify your
 * e-mail" alert for unverified users, and for models and publicists without a profile the "Crear perfil" call.
 */
export function DashboardView({ kind, children }: { kind: Role; children?: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(t(`dashboards.${kind}.title`));
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoader />;
  const createProfile = profileToCreate(user);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t(`dashboards.${kind}.heading`)}</Title>
          <Text mt={4} size="lg">
            {t('dashboards.greeting', { name: user.name })}
          </Text>
          <Group gap="xs" mt="xs">
            <Badge variant="light" color="gray" tt="none" size="lg">
              {t('dashboards.roleLabel', { role: t(`account.roles.${user.role}`) })}
            </Badge>
            <Badge variant="light" color={isVerified(user) ? 'teal' : 'orange'} tt="none" size="lg">
              {isVerified(user) ? t('dashboards.emailVerified') : t('dashboards.emailUnverified')}
            </Badge>
          </Group>
        </div>
        {isVerified(user) ? null : <UnverifiedAlert />}
        {createProfile ? <CreateProfileCta user={user} to={createProfile} /> : null}
        {children ?? (
          <Paper withBorder p="lg" radius="lg">
            <Text>{t(`dashboards.${kind}.placeholder`)}</Text>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
