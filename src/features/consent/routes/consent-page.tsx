/**
 * The model's consent pages (issue 6 point 2), public: `/{lng}/consent/{token}` shows which publicist wants to list
 * them and the ad, with "I agree" / "I do not agree" (the link works once); `/{lng}/consent/withdraw/{token}`
 * withdraws a given consent, which hides the ads at once; `/{lng}/consent` takes the code sent with the link (for a
 * model who cannot or will not open links) and leads to the same page. Expired and used links say so in the
 * visitor's language.
 */
import { Alert, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigate, useParams } from '#src/lib/router.tsx';
import {
  CONSENT_CODE_LENGTH,
  consentCodeSchema,
  type ConsentCodeInput,
  type ConsentDecision,
  type ConsentRequest,
} from '#contract/publicists.ts';
import { ApiForm } from '#src/components/api-form.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ApiError, ConflictError } from '#src/lib/api-client.ts';
import { formatDate } from '#src/lib/format.ts';
import { useApiForm, useFieldValues } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { answerConsent, consentQueryOptions, redeemConsentCode, withdrawConsent } from '../api/consent-api.ts';

type Outcome = 'given' | 'declined' | 'withdrawn' | null;

function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={640} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{title}</Title>
        {children}
      </Stack>
    </Container>
  );
}

function Message({ color, text }: { color: 'teal' | 'orange' | 'red' | 'blue'; text: string }) {
  const icon =
    color === 'teal' ? (
      <IconCircleCheck size={18} aria-hidden />
    ) : color === 'blue' ? (
      <IconInfoCircle size={18} aria-hidden />
    ) : (
      <IconAlertTriangle size={18} aria-hidden />
    );
  return (
    <Alert color={color} variant="light" icon={icon} role="status">
      {text}
    </Alert>
  );
}

function AdPreview({ request }: { request: ConsentRequest }) {
  const { t } = useTranslation();
  if (!request.ad) return null;
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="consent-ad-heading">
      <Text size="xs" c="dimmed" id="consent-ad-heading">
        {t('consent.adHeading')}
      </Text>
      <Title order={2} size="h4" mt={4}>
        {request.model.display_name} — {request.ad.title}
      </Title>
      <Text size="sm" c="dimmed">
        {t('consent.where', { city: request.ad.city, section: request.ad.section })}
      </Text>
      <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {request.ad.description}
      </Text>
    </Paper>
  );
}

/** Used or expired meanwhile (409): say so on the page rather than in a passing notice. */
function closedOnConflict(setClosed: (message: string) => void, fallback: string) {
  return (err: unknown) => {
    if (!(err instanceof ConflictError)) return false;
    setClosed(err.data?.message ?? fallback);
    return true;
  };
}

function useConsentRequest(kind: 'give' | 'withdraw') {
  const token = useParams().token ?? '';
  return { token, query: useQuery(consentQueryOptions(kind, token)) };
}

function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && error.status === 404) return <Message color="red" text={t('consent.notFound')} />;
  return (
    <Paper withBorder p="lg" radius="lg">
      <Group justify="space-between">
        <Text>{t('consent.loadError')}</Text>
        <Button variant="light" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Paper>
  );
}

/** `/{lng}/consent/{token}`: agree or not to be listed by the publicist. */
export function ConsentRoute() {
  const { t } = useTranslation();
  usePageTitle(t('consent.title'));
  const lng = useLng();
  const queryClient = useQueryClient();
  const { token, query } = useConsentRequest('give');
  const form = useApiForm([] as const);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [closed, setClosed] = useState<string | null>(null);

  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    return (
      <Shell title={t('consent.title')}>
        <LoadFailure error={query.error} onRetry={() => void query.refetch()} />
      </Shell>
    );
  }
  const request = query.data;
  const publicist = request.publicist.display_name;

  const answer = async (decision: ConsentDecision) => {
    const res = await form.run(() => answerConsent(token, decision), { onError: closedOnConflict(setClosed, t('consent.used')) });
    if (!res) return;
    handleAnswer({ status: res.status, data: res.data }, form.ui);
    setOutcome(decision === 'agree' ? 'given' : 'declined');
    queryClient.setQueryData(consentQueryOptions('give', token).queryKey, res.data.data);
  };

  let body: ReactNode;
  if (outcome === 'given') body = <Message color="teal" text={t('consent.given')} />;
  else if (outcome === 'declined') body = <Message color="blue" text={t('consent.declined')} />;
  else if (closed) body = <Message color="orange" text={closed} />;
  else if (request.state === 'expired') body = <Message color="orange" text={t('consent.expired', { publicist })} />;
  else if (request.state !== 'pending') body = <Message color="orange" text={t('consent.used')} />;
  else {
    body = (
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('consent.expires', { date: formatDate(request.expires_at, lng) })}
        </Text>
        <Group gap="sm">
          <Button color="teal" loading={form.pending} onClick={() => void answer('agree')}>
            {t('consent.agree')}
          </Button>
          <Button color="red" variant="light" disabled={form.pending} onClick={() => void answer('decline')}>
            {t('consent.decline')}
          </Button>
        </Group>
        <Text size="sm">{t('consent.note')}</Text>
      </Stack>
    );
  }

  return (
    <Shell title={t('consent.title')}>
      <Stack gap={4}>
        <Text size="lg">{t('consent.intro', { publicist })}</Text>
        {request.publicist.legal_name ? (
          <Text size="sm" c="dimmed">
            {t('consent.legal', { legal: request.publicist.legal_name })}
          </Text>
        ) : null}
      </Stack>
      <AdPreview request={request} />
      {body}
    </Shell>
  );
}

/** `/{lng}/consent/withdraw/{token}`: withdraw a given consent; the ads are hidden at once. */
export function ConsentWithdrawRoute() {
  const { t } = useTranslation();
  usePageTitle(t('consent.withdrawTitle'));
  const { token, query } = useConsentRequest('withdraw');
  const form = useApiForm([] as const);
  const [done, setDone] = useState(false);
  const [closed, setClosed] = useState<string | null>(null);

  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    return (
      <Shell title={t('consent.withdrawTitle')}>
        <LoadFailure error={query.error} onRetry={() => void query.refetch()} />
      </Shell>
    );
  }
  const request = query.data;

  const withdraw = async () => {
    const res = await form.run(() => withdrawConsent(token), { onError: closedOnConflict(setClosed, t('consent.used')) });
    if (!res) return;
    handleAnswer({ status: res.status, data: res.data }, form.ui);
    setDone(true);
  };

  return (
    <Shell title={t('consent.withdrawTitle')}>
      <Text size="lg">{t('consent.withdrawIntro', { publicist: request.publicist.display_name })}</Text>
      <AdPreview request={request} />
      {done || request.state === 'withdrawn' ? (
        <Message color="teal" text={t('consent.withdrawn')} />
      ) : closed ? (
        <Message color="orange" text={closed} />
      ) : request.state !== 'given' ? (
        <Message color="orange" text={t('consent.used')} />
      ) : (
        <Group>
          <Button color="red" loading={form.pending} onClick={() => void withdraw()}>
            {t('consent.withdrawButton')}
          </Button>
        </Group>
      )}
    </Shell>
  );
}

const CODE_FIELDS = ['contact', 'code'] as const;

/** `/{lng}/consent`: the contact the request went to and the code in it → the request's page. */
export function ConsentCodeRoute() {
  const { t } = useTranslation();
  usePageTitle(t('consent.code.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const form = useApiForm(CODE_FIELDS);
  const { values, set } = useFieldValues<ConsentCodeInput>({ contact: '', code: '' }, form.clearError);

  // Sent as typed, as this screen always has: the schema only gates the submit.
  const submit = async () => {
    const done = await form.submit(consentCodeSchema, values, () => redeemConsentCode(values));
    if (done) await navigate(withLng(lng, `/consent/${done.res.data.data.token}`));
  };

  return (
    <Shell title={t('consent.code.title')}>
      <Text>{t('consent.code.intro')}</Text>
      <ApiForm form={form} onSubmit={submit}>
        <TextInput
          label={t('consent.code.contact')}
          description={t('consent.code.contactHint')}
          name="contact"
          value={values.contact}
          onChange={(e) => set('contact')(e.currentTarget.value)}
          error={form.errors.contact}
          required
        />
        <TextInput
          label={t('consent.code.code')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CONSENT_CODE_LENGTH + 4}
          value={values.code}
          onChange={(e) => set('code')(e.currentTarget.value)}
          error={form.errors.code}
          required
          w={{ base: '100%', xs: 220 }}
        />
        <Group>
          <Button type="submit" loading={form.pending}>
            {t('consent.code.submit')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('consent.code.linkHint')}
        </Text>
      </ApiForm>
    </Shell>
  );
}
