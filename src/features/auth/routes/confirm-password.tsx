import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { confirmPasswordSchema, dashboardFor } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { PasswordField } from '#src/components/password-field.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { safeNext, useLng, withLng } from '#src/lib/paths.ts';
import { confirmPassword, useCurrentUser } from '#src/lib/session.ts';

const FIELDS = ['password'] as const;

/** Confirm password (`confirm-password?next=…`): sensitive actions ask for it again; then back to `next`. */
export function ConfirmPasswordRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.confirm.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const form = useApiForm(FIELDS);
  const [password, setPassword] = useState('');

  const submit = async () => {
    const input = form.validate(confirmPasswordSchema, { password });
    if (!input) return;
    const res = await form.run(() => confirmPassword(input.password));
    if (!res) return;
    const fallback = user.data ? withLng(lng, dashboardFor(user.data.role)) : `/${lng}`;
    await navigate(safeNext(params.get('next')) ?? fallback, { replace: true });
  };

  return (
    <CenteredCard title={t('auth.confirm.heading')} intro={t('auth.confirm.intro')}>
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
          {/* The account's e-mail, for password managers. */}
          {user.data ? <input type="email" name="email" autoComplete="username" value={user.data.email} readOnly hidden /> : null}
          <PasswordField
            label={t('auth.fields.password')}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              form.clearError('password');
            }}
            error={form.errors.password}
          />
          <Button type="submit" fullWidth loading={form.pending}>
            {t('auth.confirm.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
