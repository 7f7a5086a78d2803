import { Anchor, Button, Checkbox, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useLocation, useNavigate, useSearchParams } from '#src/lib/router.tsx';
import { dashboardFor, loginSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiForm } from '#src/components/api-form.tsx';
import { CurrentPasswordField } from '#src/components/current-password-field.tsx';
import { useApiForm, useFieldValues } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { safeNext, useLng, withLng } from '#src/lib/paths.ts';
import { refreshUser, setCurrentUser } from '#src/lib/session.ts';
import { login } from '../api/auth-api.ts';
import { AuthLink } from '../components/auth-link.tsx';
import { withNext } from '../lib/register-next.ts';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['email', 'password', 'remember'] as const;

/** Router state that fills in the e-mail (after a password reset). */
export interface LoginPrefill {
  email: string;
}
const prefilledEmail = (state: unknown): string =>
  typeof state === 'object' && state !== null && typeof (state as Partial<LoginPrefill>).email === 'string'
    ? (state as LoginPrefill).email
    : '';

/** Login: e-mail, password, "remember me". Then `?next=` (same-site paths only) or the dashboard of the role. */
export function LoginRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.login.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const form = useApiForm(FIELDS);
  const location = useLocation();
  const { values, set } = useFieldValues(() => ({ email: prefilledEmail(location.state), password: '' }), form.clearError);
  const [remember, setRemember] = useState(false);

  const submit = async () => {
    const sent = await form.submit(loginSchema, { ...values, remember }, login);
    if (!sent) return;
    const { res } = sent;
    const user = res.data.data?.user ?? (await refreshUser(queryClient));
    if (user) setCurrentUser(queryClient, user);
    // The answer's message (if any) as a notification; the navigation is ours (next wins over the dashboard).
    form.notify(res);
    const target = safeNext(params.get('next')) ?? withLng(lng, res.data.redirect ?? (user ? dashboardFor(user.role) : '/'));
    await navigate(target, { replace: true });
  };

  return (
    <CenteredCard
      title={t('auth.login.heading')}
      intro={t('auth.login.intro')}
      footer={
        <AuthLink text={t('auth.login.noAccount')} to={withNext(`/${lng}/register`, params.get('next'))}>
          {t('auth.login.registerLink')}
        </AuthLink>
      }
    >
      <ApiForm form={form} onSubmit={submit}>
        <EmailField value={values.email} autoComplete="username" error={form.errors.email} onValue={set('email')} />
        <CurrentPasswordField value={values.password} onValue={set('password')} error={form.errors.password} />
        <Group justify="space-between" gap="xs">
          <Checkbox
            label={t('auth.login.remember')}
            name="remember"
            checked={remember}
            onChange={(e) => setRemember(e.currentTarget.checked)}
          />
          <Anchor component={Link} to={`/${lng}/forgot-password`} size="sm">
            {t('auth.login.forgotLink')}
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={form.pending}>
          {t('auth.login.submit')}
        </Button>
      </ApiForm>
    </CenteredCard>
  );
}
