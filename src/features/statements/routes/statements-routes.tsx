import { Alert, Anchor, Button, Container, Group, List, Pagination, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams, useSearchParams } from '#src/lib/router.tsx';
import { ACCOUNT_SUSPENDED_PATH, appealBodySchema, type Statement } from '#contract/statements.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { formatDate } from '#src/lib/format.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { DASHBOARDS } from '#contract/roles.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { sendAppeal, statementQueryOptions, statementsQueryOptions, STATEMENTS_KEY } from '../api/statements-api.ts';
import { StatementBadges, statementTitle } from '../components/statement-bits.tsx';
import { queryView } from '#src/lib/query-view.ts';

const FIELDS = ['text'] as const;

function AppealForm({ statement }: { statement: Statement }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const { formRef, errors, pending, validate, run, clearError, ui } = useApiForm(FIELDS);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const values = validate(appealBodySchema, { text });
    if (!values) return;
    const res = await run(() => sendAppeal(statement.id, values.text));
    if (!res) return;
    handleAnswer(res, ui);
    queryClient.setQueryData(statementQueryOptions(statement.id).queryKey, res.data.data);
    await queryClient.invalidateQueries({ queryKey: [...STATEMENTS_KEY, 'list'] });
  };
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="appeal-heading">
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="appeal-heading">
            {t('statements.appeal.heading')}
          </Title>
          <Text size="sm">{t('statements.show.howToAppeal')}</Text>
          <Text size="sm" fw={600}>
            {t('statements.show.appealUntil', { date: formatDate(statement.appeal_until, lng) })}
          </Text>
          <Textarea
            label={t('statements.appeal.label')}
            description={t('statements.appeal.help')}
            autosize
            minRows={4}
            maxLength={5000}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              clearError('text');
            }}
            error={errors.text}
            required
          />
          {errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors._}
            </Text>
          ) : null}
          <Group>
            <Button type="submit" loading={pending}>
              {t('statements.appeal.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" fw={600} component="dt">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

export function StatementShowRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(t('statements.show.title'));
  const id = Number(useParams().id);
  const { data: user } = useCurrentUser();
  const query = useQuery({ ...statementQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
  // A suspended account's way back is its restricted page, not a dashboard it cannot use.
  const suspended = user?.status === 'suspended';
  const back = suspended ? `/${lng}${ACCOUNT_SUSPENDED_PATH}` : user ? `/${lng}${DASHBOARDS[user.role]}` : `/${lng}`;
  const s = query.data;
  const scores = (s?.automated_detail as { moderation?: { scores?: Record<string, number> } } | null)?.moderation?.scores;
  // The rule broken is shown on its own line; the list holds only the reasons besides it.
  const otherReasons = s ? s.reason_codes.filter((c) => c !== s.ground) : [];
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to={back}>
          {suspended ? t('statements.suspended.back') : t('statements.show.back')}
        </Anchor>
        <Title order={1}>{t('statements.show.heading')}</Title>
        {query.isPending && Number.isInteger(id) && id > 0 ? (
          <Skeleton height={200} radius="lg" />
        ) : !s ? (
          <Alert color="red">
            {/* Someone else's decision (403) is, for this user, one that does not exist. */}
            {query.error instanceof ApiError && query.error.status !== 404 && query.error.status !== 403
              ? t('statements.panel.error')
              : t('statements.show.notFound')}
          </Alert>
        ) : (
          <>
            <Paper withBorder p="lg" radius="lg">
              <Stack gap="md">
                <Group gap="xs">
                  <Title order={2} size="h3">
                    {t('statements.show.restricted', { subject: statementTitle(t, s), decision: t(`statements.decisions.${s.decision}`) })}
                  </Title>
                  <StatementBadges statement={s} />
                </Group>
                <Stack gap="sm" component="dl" m={0}>
                  <Detail label={t('statements.show.date')}>{formatDate(s.created_at, lng)}</Detail>
                  <Detail label={t('statements.show.what')}>{statementTitle(t, s)}</Detail>
                  <Detail label={t('statements.show.facts')}>{s.facts}</Detail>
                  <Detail label={t('statements.show.ground')}>{t(`statements.grounds.${s.ground}`)}</Detail>
                  {otherReasons.length ? (
                    <div>
                      <Text size="sm" c="dimmed" fw={600} component="dt">
                        {t('statements.show.otherReasons')}
                      </Text>
                      <Text component="dd" m={0}>
                        <List size="sm">
                          {otherReasons.map((c) => (
                            <List.Item key={c}>{t(`statements.grounds.${c}`)}</List.Item>
                          ))}
                        </List>
                      </Text>
                    </div>
                  ) : null}
                  <Detail label={t('statements.show.automated')}>
                    {s.automated ? t('statements.show.automatedYes') : t('statements.show.automatedNo')}
                    {scores ? ` ${t('statements.show.scores', scores)}` : ''}
                  </Detail>
                </Stack>
              </Stack>
            </Paper>
            {s.appeal ? (
              <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="appeal-state">
                <Stack gap="sm">
                  <Title order={2} size="h4" id="appeal-state">
                    {t('statements.appeal.status')}: {t(`statements.appeal.statuses.${s.appeal.status}`)}
                  </Title>
                  <Detail label={t('statements.appeal.yours')}>{s.appeal.text}</Detail>
                  {s.appeal.decision_text ? <Detail label={t('statements.appeal.decision')}>{s.appeal.decision_text}</Detail> : null}
                </Stack>
              </Paper>
            ) : s.can_appeal ? (
              <AppealForm statement={s} />
            ) : (
              <Alert color="gray">{t('statements.show.closed', { date: formatDate(s.appeal_until, lng) })}</Alert>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

export function StatementsIndexRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(t('statements.index.title'));
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const view = queryView(useQuery(statementsQueryOptions(page)));
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Title order={1}>{t('statements.index.heading')}</Title>
        <Text>{t('statements.index.intro')}</Text>
        {view.state === 'loading' ? (
          <Skeleton height={120} radius="lg" />
        ) : view.state === 'failed' ? (
          <Alert color="red">{t('statements.panel.error')}</Alert>
        ) : view.data.data.length === 0 ? (
          <Text c="dimmed">{t('statements.panel.empty')}</Text>
        ) : (
          <Stack gap="sm">
            {view.data.data.map((s) => (
              <Paper key={s.id} withBorder p="md" radius="md">
                <Group justify="space-between" gap="xs">
                  <Stack gap={2}>
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
              </Paper>
            ))}
            {view.data.meta.last_page > 1 ? (
              <Pagination
                total={view.data.meta.last_page}
                value={page}
                onChange={(p) => setParams({ page: String(p) })}
                getControlProps={(control) => ({ 'aria-label': t(`statements.page.${control}`) })}
                getItemProps={(p) => ({ 'aria-label': t('statements.page.number', { page: p }) })}
              />
            ) : null}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
export { StatementsPanel } from '../components/statements-panel.tsx';
export { AccountSuspendedRoute } from './account-suspended.tsx';
