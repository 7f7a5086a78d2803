import { Alert, Button } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { forgotPasswordSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiForm } from '#src/components/api-form.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { forgotPassword } from '../api/auth-api.ts';
import { AuthLink } from '../components/auth-link.tsx';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['email'] as const;

/** Forgot password: the server always answers the same (no account enumeration); the answer is shown in place. */
export function ForgotPasswordRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.forgot.title'));
  const lng = useLng();
  const form = useApiForm(FIELDS);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);

  const submit = async () => {
    const done = await form.submit(forgotPasswordSchema, { email }, forgotPassword);
    if (done) setSent(done.res.data?.message || t('auth.forgot.sent'));
  };

  return (
    <CenteredCard
      title={t('auth.forgot.heading')}
      intro={t('auth.forgot.intro')}
      footer={<AuthLink to={`/${lng}/login`}>{t('auth.forgot.backToLogin')}</AuthLink>}
    >
      {sent ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck size={18} aria-hidden />} role="status">
          {sent}
        </Alert>
      ) : null}
      <ApiForm form={form} onSubmit={submit}>
        <EmailField
          value={email}
          autoComplete="email"
          error={form.errors.email}
          onValue={(v) => {
            setEmail(v);
            form.clearError('email');
          }}
        />
        <Button type="submit" fullWidth loading={form.pending}>
          {sent ? t('auth.forgot.resubmit') : t('auth.forgot.submit')}
        </Button>
      </ApiForm>
    </CenteredCard>
  );
}
