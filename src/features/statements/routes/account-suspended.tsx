/**
 * The restricted view of a suspended account (issue 12 point 9, issue 24 point 11, EU DSA arts. 17 and 20): says the
 * account is blocked in words for its role, lists the statements of reasons with their facts and grounds, links each to
 * its page where the appeal is made, offers the support chat and the public site, points to the profile page (data
 * export, account deletion) and offers to sign out.
 */
import { Alert, Anchor, Button, Container, Group, List, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate } from '#src/lib/router.tsx';
import { DASHBOARDS } from '#contract/roles.ts';
import type { Statement } from '#contract/statements.ts';
import { MESSENGER_PATH } from '#contract/support-chat.ts';
import { formatDate } from '#src/lib/format.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { useCurrentUser, useLogout } from '#src/lib/session.ts';
import { statementsQueryOptions } from '../api/statements-api.ts';
import { StatementBadges, statementTitle } from '../components/statement-bits.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

function StatementCard({ statement: s }: { statement: Statement }) {
  const { t } = useTranslation();
  const lng = useLng();
  const title = statementTitle(t, s);
  const others = s.reason_codes.filter((c) => c !== s.ground);
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={`suspended-statement-${s.id}`}>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={3} size="h5" id={`suspended-statement-${s.id}`}>
            {t('statements.show.restricted', { subject: title, decision: t(`statements.decisions.${s.decision}`) })}
          </Title>
          <StatementBadges statement={s} />
        </Group>
        <Text size="sm" c="dimmed">
          {formatDate(s.created_at, lng)}
        </Text>
        <Text size="sm">
          <Text span fw={600}>
            {t('statements.show.facts')}:
          </Text>{' '}
          {s.facts}
        </Text>
        <Text size="sm">
          <Text span fw={600}>
            {t('statements.show.ground')}:
          </Text>{' '}
          {t(`statements.grounds.${s.ground}`)}
        </Text>
        {others.length ? (
          <List size="sm">
            {others.map((c) => (
              <List.Item key={c}>{t(`statements.grounds.${c}`)}</List.Item>
            ))}
          </List>
        ) : null}
        <Group>
          {/* The label names the subject, which can be long: it wraps instead of being cut at 360 px. */}
          <Button
            component={Link}
            to={`/${lng}/statements/${s.id}`}
            variant={s.can_appeal ? 'filled' : 'light'}
            size="sm"
            h="auto"
            py={6}
            styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
          >
            {t('statements.suspended.open', { subject: title })}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function AccountSuspendedRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(t('statements.suspended.title'));
  const { data: user } = useCurrentUser();
  const { logout, pending } = useLogout();
  const { data, isPending, isError } = useQuery(statementsQueryOptions(1, 50));
  // Reinstated meanwhile: the account's own dashboard.
  if (user && user.status !== 'suspended') return <Navigate to={`/${lng}${DASHBOARDS[user.role]}`} replace />;
  // The account's own suspension first, then whatever else was decided about the person's content.
  const list = data ? [...data.data].sort((a, b) => Number(b.subject_type === 'user') - Number(a.subject_type === 'user')) : [];
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Title order={1}>{t('statements.suspended.heading')}</Title>
        <Alert color="orange" variant="light">
          {/* Worded for the role: a client has no ads, a publicist's are the agency's (`intro_client`, `intro_publicist`). */}
          {t('statements.suspended.intro', { context: user?.role })}
        </Alert>
        <Stack gap="sm" component="section" aria-labelledby="suspended-statements">
          <Title order={2} size="h4" id="suspended-statements">
            {t('statements.suspended.statementsHeading')}
          </Title>
          {isPending ? (
            <Skeleton height={160} radius="md" />
          ) : failedWithNothingSaved({ data, isError }) ? (
            <Alert color="red">{t('statements.suspended.error')}</Alert>
          ) : list.length === 0 ? (
            <Text c="dimmed">{t('statements.suspended.none')}</Text>
          ) : (
            list.map((s) => <StatementCard key={s.id} statement={s} />)
          )}
        </Stack>
        <Stack gap="xs" component="section" aria-label={t('statements.suspended.support')}>
          <Text>{t('statements.suspended.meanwhile')}</Text>
          <Group>
            <Button component={Link} to={`/${lng}${MESSENGER_PATH}`} variant="light">
              {t('statements.suspended.support')}
            </Button>
            <Button component={Link} to={`/${lng}`} variant="default">
              {t('statements.suspended.browse')}
            </Button>
          </Group>
        </Stack>
        <Text>
          {t('statements.suspended.data')}{' '}
          <Anchor component={Link} to={`/${lng}/profile`} underline="always">
            {t('statements.suspended.profile')}
          </Anchor>
        </Text>
        <Group>
          <Button variant="default" onClick={() => void logout()} loading={pending}>
            {t('statements.suspended.logout')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
