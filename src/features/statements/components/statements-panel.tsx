import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { formatDate } from '#src/lib/format.ts';
import { useLng } from '#src/lib/paths.ts';
import { statementsQueryOptions } from '../api/statements-api.ts';
import { StatementBadges, statementTitle } from './statement-bits.tsx';
import { queryView } from '#src/lib/query-view.ts';

/**
 * "Decisiones sobre tu contenido": the newest statements of reasons in every role's dashboard (EU DSA art. 17), each
 * linking to its page with the appeal form.
 */
export function StatementsPanel() {
  const { t } = useTranslation();
  const lng = useLng();
  const headingId = useId();
  const { data, isError } = useQuery(statementsQueryOptions(1, 5));
  const view = queryView({ data, isError });
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('statements.panel.title')}
        </Title>
        {view.state === 'loading' ? (
          <Skeleton height={48} radius="md" />
        ) : view.state === 'failed' ? (
          <Text c="red">{t('statements.panel.error')}</Text>
        ) : view.data.data.length === 0 ? (
          <Text c="dimmed">{t('statements.panel.empty')}</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {view.data.data.map((s) => (
              <li key={s.id}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Anchor component={Link} to={`/${lng}/statements/${s.id}`} fw={600}>
                      {statementTitle(t, s)}
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {formatDate(s.created_at, lng)} · {t(`statements.grounds.${s.ground}`)}
                    </Text>
                  </Stack>
                  <Group gap={6}>
                    <StatementBadges statement={s} />
                  </Group>
                </Group>
              </li>
            ))}
          </Stack>
        )}
        {data && data.meta.total > data.data.length ? (
          <Anchor component={Link} to={`/${lng}/statements`}>
            {t('statements.panel.viewAll')}
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
