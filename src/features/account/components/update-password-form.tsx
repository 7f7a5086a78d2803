import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePasswordSchema, type User } from '#contract/auth.ts';
import { FormError } from '#src/components/form-error.tsx';
import { NewPasswordFields, PasswordField } from '#src/components/password-field.tsx';
import { useApiForm, type FieldErrors } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { updatePassword } from '../api/account-api.ts';
import { ProfileSection } from './profile-section.tsx';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/** Password update: current password, new password (8–128) and its confirmation. */
export function UpdatePasswordForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const form = useApiForm(FIELDS);
  const [values, setValues] = useState(EMPTY);

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    form.clearError(field);
  };

  const submit = async () => {
    const extra: FieldErrors<Field> = {};
    if (values.password_confirmation && values.password !== values.password_confirmation) {
      extra.password_confirmation = t('validation.password_confirmation');
    }
    const input = form.validate(updatePasswordSchema, values, extra);
    if (!input) return;
    const res = await form.run(() => updatePassword(input));
    if (!res) return;
    handleAnswer(res, form.ui);
    setValues(EMPTY);
  };

  return (
    <ProfileSection id="update-password" title={t('account.profile.password.heading')} intro={t('account.profile.password.intro')}>
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
          {/* The account's e-mail, so password managers file the new password under the right account. */}
          <input type="email" name="email" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordField
            label={t('account.profile.password.current')}
            name="current_password"
            autoComplete="current-password"
            required
            value={values.current_password}
            onChange={(e) => set('current_password')(e.currentTarget.value)}
            error={form.errors.current_password}
          />
          <NewPasswordFields
            label={t('auth.fields.newPassword')}
            password={values.password}
            confirmation={values.password_confirmation}
            errors={form.errors}
            onPassword={set('password')}
            onConfirmation={set('password_confirmation')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              {t('account.profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ProfileSection>
  );
}
