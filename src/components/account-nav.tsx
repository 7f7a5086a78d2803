/**
 * The account part of the header. Logged out: "Iniciar sesión" and "Registrarse" (behind one icon menu below
 * 568 px). Logged in: a menu named after the user with "Mi panel", "Mi perfil", "Escribir a los administradores" (not for
 * staff) and "Cerrar sesión".
 */
import { ActionIcon, Box, Button, Group, Text } from '@mantine/core';
import {
  IconChevronDown,
  IconLayoutDashboard,
  IconLogin2,
  IconLogout,
  IconMail,
  IconUserCircle,
  IconUserPlus,
  IconUser,
} from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useNavigate } from '#src/lib/router.tsx';
import { dashboardFor } from '#contract/roles.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useCurrentUser, useLogout } from '#src/lib/session.ts';
import { lastOutboxUser } from '#src/offline/auth-flag.ts';
import { MenuButton, MenuDivider, MenuItem, MenuLabel } from './menu-button.tsx';

function GuestNav() {
  const { t } = useTranslation();
  const lng = useLng();
  return (
    <>
      <Group gap={4} wrap="nowrap" visibleFrom="sm">
        <Button component={Link} to={`/${lng}/login`} variant="subtle" color="gray" size="sm" px="xs">
          {t('auth.nav.login')}
        </Button>
        <Button component={Link} to={`/${lng}/register`} size="compact-sm">
          {t('auth.nav.register')}
        </Button>
      </Group>
      <Box hiddenFrom="sm">
        <MenuButton
          trigger={(props) => (
            <ActionIcon {...props} variant="subtle" color="gray" size="lg" aria-label={t('account.menu.guest')}>
              <IconUserCircle size={22} aria-hidden />
            </ActionIcon>
          )}
        >
          <MenuItem to={`/${lng}/login`} leftSection={<IconLogin2 size={16} aria-hidden />}>
            {t('auth.nav.login')}
          </MenuItem>
          <MenuItem to={`/${lng}/register`} leftSection={<IconUserPlus size={16} aria-hidden />}>
            {t('auth.nav.register')}
          </MenuItem>
        </MenuButton>
      </Box>
    </>
  );
}

export function AccountNav() {
  const { t } = useTranslation();
  const lng = useLng();
  const user = useCurrentUser();
  const { logout, pending } = useLogout();
  const navigate = useNavigate();

  // Until the first answer: keep the room, show nothing (no flash of "Iniciar sesión" for a logged-in user).
  if (user.isPending) return <Box w={34} h={34} aria-hidden />;
  // The header treats an unreachable session like a logged-out one; guarded pages say what went wrong.
  if (!user.data) return <GuestNav />;

  const { name, email, role, id } = user.data;
  // Changes still queued on this device: warn first (the outbox's code loads only when there is a queue).
  const signOut = async () => {
    if (lastOutboxUser() === id) {
      const { confirmSignOutWithQueue } = await import('#src/offline/sign-out-warning.tsx');
      if (!(await confirmSignOutWithQueue(id, t, () => void navigate(withLng(lng, '/sync'))))) return;
    }
    await logout();
  };
  return (
    <MenuButton
      trigger={(props) => (
        <Button
          {...props}
          variant="subtle"
          color="gray"
          px="xs"
          loading={pending}
          leftSection={<IconUserCircle size={20} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={t('account.menu.open', { name })}
        >
          <Text span size="sm" fw={500} truncate maw={140} visibleFrom="sm">
            {name}
          </Text>
        </Button>
      )}
    >
      <MenuLabel>
        <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate maw={220}>
          {name}
        </Text>
        <Text size="xs" truncate maw={220}>
          {email}
        </Text>
      </MenuLabel>
      <MenuItem to={withLng(lng, dashboardFor(role))} leftSection={<IconLayoutDashboard size={16} aria-hidden />}>
        {t('account.menu.dashboard')}
      </MenuItem>
      <MenuItem to={`/${lng}/profile`} leftSection={<IconUser size={16} aria-hidden />}>
        {t('account.menu.profile')}
      </MenuItem>
      {/* Users write to the staff from the contact page, which switches to the signed-in form (features/contact). */}
      {role === 'admin' || role === 'super_admin' ? null : (
        <MenuItem to={`/${lng}/contact`} leftSection={<IconMail size={16} aria-hidden />}>
          {t('contact.menu.messageAdmins')}
        </MenuItem>
      )}
      <MenuDivider />
      <MenuItem color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()}>
        {t('account.menu.logout')}
      </MenuItem>
    </MenuButton>
  );
}
