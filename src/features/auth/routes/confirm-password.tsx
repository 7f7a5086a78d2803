import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigate, useSearchParams } from '#src/lib/router.tsx';
import { confirmPasswordSchema, dashboardFor } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiForm } from '#src/components/api-form.tsx';
import { CurrentPasswordField } from '#src/components/current-password-field.tsx';
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
    const done = await form.submit(confirmPasswordSchema, { password }, (input) => confirmPassword(input.password));
    if (!done) return;
    const fallback = user.data ? withLng(lng, dashboardFor(user.data.role)) : `/${lng}`;
    await navigate(safeNext(params.get('next')) ?? fallback, { replace: true });
  };

  return (
    <CenteredCard title={t('auth.confirm.heading')} intro={t('auth.confirm.intro')}>
      <ApiForm form={form} onSubmit={submit}>
        {/* The account's e-mail, for password managers. */}
        {user.data ? <input type="email" name="email" autoComplete="username" value={user.data.email} readOnly hidden /> : null}
        <CurrentPasswordField
          value={password}
          onValue={(v) => {
            setPassword(v);
            form.clearError('password');
          }}
          error={form.errors.password}
        />
        <Button type="submit" fullWidth loading={form.pending}>
          {t('auth.confirm.submit')}
        </Button>
      </ApiForm>
    </CenteredCard>
  );
}
