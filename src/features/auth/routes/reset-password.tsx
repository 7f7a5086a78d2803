import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { resetPasswordSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { NewPasswordFields } from '#src/components/password-field.tsx';
import { useApiForm, type FieldErrors } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { resetPassword } from '../api/auth-api.ts';
import { AuthLink } from '../components/auth-link.tsx';
import type { LoginPrefill } from './login.tsx';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['email', 'password', 'password_confirmation'] as const;
type Field = (typeof FIELDS)[number];

/** Reset password, from the e-mail link `/{lng}/reset-password/{token}?email=…`; on success the answer sends to /login. */
export function ResetPasswordRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.reset.title'));
  const lng = useLng();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useApiForm(FIELDS);
  const [values, setValues] = useState({ email: params.get('email') ?? '', password: '', password_confirmation: '' });

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    form.clearError(field);
  };

  const submit = async () => {
    const extra: FieldErrors<Field> = {};
    if (values.password_confirmation && values.password !== values.password_confirmation) {
      extra.password_confirmation = t('validation.password_confirmation');
    }
    // A malformed token is a broken link, not something to type: it shows as the form's general error.
    const input = form.validate(resetPasswordSchema, { token, ...values }, extra);
    if (!input) return;
    const res = await form.run(() => resetPassword(input));
    if (!res) return;
    handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
    // The login form starts with the address just used (router state: not in the URL, nor in the history's address).
    const state: LoginPrefill = { email: input.email };
    await navigate(withLng(lng, res.data?.redirect ?? '/login'), { state });
  };

  return (
    <CenteredCard
      title={t('auth.reset.heading')}
      intro={t('auth.reset.intro')}
      footer={<AuthLink to={`/${lng}/forgot-password`}>{t('auth.reset.newLink')}</AuthLink>}
    >
      <form
        ref={form.formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <FormError message={form.errors._} />
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
        </Stack>
      </form>
    </CenteredCard>
  );
}
