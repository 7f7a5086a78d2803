import { Anchor, Button, Checkbox, Radio, Stack, Text, TextInput, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useSearchParams } from '#src/lib/router.tsx';
import type { Answer } from '#contract/answers.ts';
import { REGISTRABLE_ROLES, registerSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { ApiForm } from '#src/components/api-form.tsx';
import { NewPasswordFields } from '#src/components/password-field.tsx';
import { confirmationMismatch, useApiForm, useFieldValues, type FieldErrors } from '#src/lib/forms.ts';
import { withDeviceFavourites } from '#src/lib/favourites-register.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { registerUser } from '../api/auth-api.ts';
import { AuthLink } from '../components/auth-link.tsx';
import { keepRegisterNext, withNext } from '../lib/register-next.ts';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['name', 'email', 'password', 'password_confirmation', 'role', 'terms'] as const;
type Field = (typeof FIELDS)[number];

/** The terms open in a new tab so the half-filled form stays; screen readers are told so. */
function NewTabLink({ to, children }: { to: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={to} target="_blank" rel="noopener" inherit>
      {children}
      <VisuallyHidden> ({t('auth.register.newTab')})</VisuallyHidden>
    </Anchor>
  );
}

/**
 * Shown instead of the form once the request went through: registering never logs in, the e-mail link does.
 * The server's wording comes first (it does not reveal whether the address already had an account).
 */
function CheckInbox({ email, answer, next }: { email: string; answer: Answer | undefined; next: string | null }) {
  const { t } = useTranslation();
  const lng = useLng();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form it replaces was long: at 360 px the window stayed scrolled past the card's top (no navigation resets it).
  useEffect(() => {
    window.scrollTo(0, 0);
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Stack align="center" ta="center" gap="sm">
      <ThemeIcon size={56} radius="xl" variant="light" color="teal">
        <IconMailCheck size={30} aria-hidden />
      </ThemeIcon>
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        {answer?.message || t('auth.register.sentTitle')}
      </Title>
      <Text style={{ overflowWrap: 'anywhere' }}>
        {answer?.description || <Trans i18nKey="auth.register.sentText" values={{ email }} components={{ strong: <strong /> }} />}
      </Text>
      <Text size="sm">{t('auth.register.sentHint')}</Text>
      <Anchor component={Link} to={withNext(`/${lng}/login`, next)} fw={600}>
        {t('auth.register.toLogin')}
      </Anchor>
    </Stack>
  );
}

/**
 * Register: name, e-mail, password (8–128), confirmation, role, and the 18+/terms checkbox (client-side only). A
 * `?next=` (same-site paths only) is where the verification link leads afterwards (register-next.ts).
 */
export function RegisterRoute() {
  const { t } = useTranslation();
  usePageTitle(t('auth.register.title'));
  const lng = useLng();
  const [params] = useSearchParams();
  const next = params.get('next');
  const form = useApiForm(FIELDS);
  const { values, set } = useFieldValues({ name: '', email: '', password: '', password_confirmation: '', role: '' }, form.clearError);
  const [terms, setTerms] = useState(false);
  const [sent, setSent] = useState<{ email: string; answer: Answer | undefined } | null>(null);

  const submit = async () => {
    const extra: FieldErrors<Field> = { ...confirmationMismatch(values, t) };
    if (!terms) extra.terms = t('auth.register.termsRequired');
    // The visitor's device favourites go with it (issue 28): the account keeps them wherever the link is opened.
    const done = await form.submit(registerSchema, values, async (body) => registerUser(await withDeviceFavourites(body)), { extra });
    if (!done) return;
    keepRegisterNext(next);
    setSent({ email: done.input.email, answer: done.res.data });
  };

  if (sent) {
    return (
      <CenteredCard title={t('auth.register.heading')}>
        <CheckInbox email={sent.email} answer={sent.answer} next={next} />
      </CenteredCard>
    );
  }

  return (
    <CenteredCard
      title={t('auth.register.heading')}
      intro={t('auth.register.intro')}
      footer={
        <AuthLink text={t('auth.register.haveAccount')} to={withNext(`/${lng}/login`, next)}>
          {t('auth.register.loginLink')}
        </AuthLink>
      }
    >
      <ApiForm form={form} onSubmit={submit}>
        <TextInput
          label={t('auth.fields.name')}
          name="name"
          autoComplete="name"
          required
          value={values.name}
          onChange={(e) => set('name')(e.currentTarget.value)}
          error={form.errors.name}
        />
        <EmailField value={values.email} autoComplete="email" error={form.errors.email} onValue={set('email')} />
        <NewPasswordFields
          label={t('auth.fields.password')}
          password={values.password}
          confirmation={values.password_confirmation}
          errors={form.errors}
          onPassword={set('password')}
          onConfirmation={set('password_confirmation')}
        />
        <Radio.Group
          label={t('auth.register.roleLabel')}
          name="role"
          required
          value={values.role || null}
          onChange={set('role')}
          error={form.errors.role}
        >
          <Stack gap="xs" mt={6}>
            {REGISTRABLE_ROLES.map((role) => (
              <Radio
                key={role}
                value={role}
                label={t(`account.roles.${role}`)}
                description={t(`auth.register.roleHint.${role}`)}
                aria-invalid={form.errors.role ? true : undefined}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox
          name="terms"
          required
          checked={terms}
          onChange={(e) => {
            setTerms(e.currentTarget.checked);
            form.clearError('terms');
          }}
          error={form.errors.terms}
          aria-invalid={form.errors.terms ? true : undefined}
          label={
            <Trans
              i18nKey="auth.register.terms"
              components={{
                terms: <NewTabLink to={`/${lng}/legal/terms-and-conditions`} />,
              }}
            />
          }
        />
        <Button type="submit" fullWidth loading={form.pending}>
          {t('auth.register.submit')}
        </Button>
      </ApiForm>
    </CenteredCard>
  );
}
