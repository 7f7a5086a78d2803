import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useNavigate, useParams, useSearchParams } from '#src/lib/router.tsx';
import { dashboardFor, PROFILE_CREATE_ROUTES, verifyEmailSchema } from '#contract/auth.ts';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiError, OfflineError } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { isVerified, refreshUser, useCurrentUser } from '#src/lib/session.ts';
import { verifyEmail, type VerifyAnswer } from '../api/auth-api.ts';
import { takeRegisterNext } from '../lib/register-next.ts';

type Outcome =
  { kind: 'pending' } | { kind: 'verified'; title: string; text: string; okText: string; to: string } | { kind: 'failed'; message: string };

/** Where the answer sends the user, language-neutral: its `redirect`, else the profile to create or the dashboard. */
function destination(answer: VerifyAnswer): string {
  if (answer.redirect) return answer.redirect;
  const role = answer.user.role;
  return PROFILE_CREATE_ROUTES[role] ?? dashboardFor(role);
}

/**
 * Verify, from the e-mail link `/{lng}/verify-email/{id}/{hash}?expires=…&signature=…`: posts the link's
 * parameters once (a ref keeps React's development double effect from posting twice), which also logs the user
 * in, then shows the "¡Correo verificado!" modal whose button leads on (profile creation or the dashboard).
 */
export function VerifyEmailRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.verify.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { id, hash } = useParams();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const started = useRef(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'pending' });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const input = verifyEmailSchema.safeParse({ id, hash, expires: params.get('expires'), signature: params.get('signature') });
    if (!input.success) {
      setOutcome({ kind: 'failed', message: t('auth.verify.invalidLink') });
      return;
    }
    void (async () => {
      try {
        const res = await verifyEmail(input.data);
        const answer = res.data;
        // The server has logged the user in: wait for the session so the next screen's guard sees it.
        await refreshUser(queryClient).catch(() => null);
        // Where the registration was asked from (its `?next=`, kept on this device), like the login's next.
        const to = takeRegisterNext() ?? withLng(lng, destination(answer));
        const result = {
          kind: 'verified' as const,
          title: answer.message || t('auth.verify.successTitle'),
          text: answer.description || t('auth.verify.successText'),
          okText: answer.okText || t('auth.verify.continue'),
          to,
        };
        setOutcome(result);
        const modalId = modals.open({
          title: result.title,
          centered: true,
          children: (
            <Stack>
              <Text>{result.text}</Text>
              <Button
                data-autofocus
                onClick={() => {
                  modals.close(modalId);
                  void navigate(to);
                }}
              >
                {result.okText}
              </Button>
            </Stack>
          ),
        });
      } catch (err) {
        const message =
          err instanceof ApiError
            ? err.data?.message || t('auth.verify.invalidLink')
            : err instanceof OfflineError
              ? t('errors.offline')
              : t('common.unknownError');
        setOutcome({ kind: 'failed', message });
      }
    })();
  }, [hash, id, lng, navigate, params, queryClient, t]);

  // Leaving the page closes a modal still open.
  useEffect(() => () => modals.closeAll(), []);

  return (
    <CenteredCard title={t('auth.verify.heading')}>
      {outcome.kind === 'pending' ? (
        <Stack align="center" gap="sm" role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text>{t('auth.verify.checking')}</Text>
        </Stack>
      ) : outcome.kind === 'verified' ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />} title={outcome.title}>
            {outcome.text}
          </Alert>
          <Button component={Link} to={outcome.to}>
            {outcome.okText}
          </Button>
        </Stack>
      ) : (
        <Stack gap="md">
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('auth.verify.failedTitle')}>
            {outcome.message}
          </Alert>
          {user.data && !isVerified(user.data) ? (
            <>
              <Text size="sm">{t('auth.verify.resendHint')}</Text>
              <ResendVerificationButton fullWidth />
            </>
          ) : user.data ? (
            <Button component={Link} to={withLng(lng, dashboardFor(user.data.role))} variant="light">
              {t('account.menu.dashboard')}
            </Button>
          ) : (
            <>
              <Text size="sm">{t('auth.verify.loginToResend')}</Text>
              <Button component={Link} to={`/${lng}/login?next=${encodeURIComponent(`/${lng}/verify-email`)}`} variant="light">
                {t('auth.nav.login')}
              </Button>
            </>
          )}
        </Stack>
      )}
    </CenteredCard>
  );
}
