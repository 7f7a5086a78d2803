/**
 * The outbox waits for a sign-in (the session expired while changes were queued): a notice fixed at the bottom with the
 * login link, which brings the user back to `next`. Free of Dexie, so the shell can show it to a signed-out visitor too.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { loginPath, useLng } from '#src/lib/paths.ts';

/** Fixed at the bottom: the queue waits for a sign-in, which comes back to `next`. */
export function SignInNotice({ next }: { next: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      radius="md"
      role="alert"
      data-testid="outbox-sign-in"
      style={{ position: 'fixed', left: 12, right: 12, bottom: 12, zIndex: 300, maxWidth: 520, marginInline: 'auto' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{t('outbox.signIn.text')}</Text>
        <Button component="a" href={loginPath(lng, next)} size="xs" color="orange" style={{ flexShrink: 0 }}>
          {t('outbox.signIn.button')}
        </Button>
      </Group>
    </Paper>
  );
}
