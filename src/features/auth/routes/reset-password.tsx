import { Button } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigate, useParams, useSearchParams } from '#src/lib/router.tsx';
import { resetPasswordSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiForm } from '#src/components/api-form.tsx';
import { NewPasswordFields } from '#src/components/password-field.tsx';
import { confirmationMismatch, useApiForm, useFieldValues } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { resetPassword } from '../api/auth-api.ts';
import { AuthLink } from '../components/auth-link.tsx';
import type { LoginPrefill } from './login.tsx';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['email', 'password', 'password_confirmation'] as const;

/** Reset password, from the e-mail link `/{lng}/reset-password/{token}?email=…`; on success the answer sends to /login. */
export function ResetPasswordRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.reset.title'));
  const lng = useLng();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useApiForm(FIELDS);
  const { values, set } = useFieldValues(
    () => ({ email: params.get('email') ?? '', password: '', password_confirmation: '' }),
    form.clearError,
  );

  const submit = async () => {
    // A malformed token is a broken link, not something to type: it shows as the form's general error.
    const done = await form.submit(resetPasswordSchema, { token, ...values }, resetPassword, {
      extra: confirmationMismatch(values, t),
      answer: 'toast',
    });
    if (!done) return;
    // The login form starts with the address just used (router state: not in the URL, nor in the history's address).
    const state: LoginPrefill = { email: done.input.email };
    await navigate(withLng(lng, done.res.data?.redirect ?? '/login'), { state });
  };

  return (
    <CenteredCard
      title={t('auth.reset.heading')}
      intro={t('auth.reset.intro')}
      footer={<AuthLink to={`/${lng}/forgot-password`}>{t('auth.reset.newLink')}</AuthLink>}
    >
      <ApiForm form={form} onSubmit={submit}>
        <EmailField value={values.email} autoComplete="username" error={form.errors.email} onValue={set('email')} />
        <NewPasswordFields
          label={t('auth.fields.newPassword')}
          password={values.password}
          confirmation={values.password_confirmation}
          errors={form.errors}
          onPassword={set('password')}
          onConfirmation={set('password_confirmation')}
        />
        <Button type="submit" fullWidth loading={form.pending}>
          {t('auth.reset.submit')}
        </Button>
      </ApiForm>
    </CenteredCard>
  );
}
