import { Button, Group } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { updatePasswordSchema, type User } from '#contract/auth.ts';
import { ApiForm } from '#src/components/api-form.tsx';
import { CurrentPasswordField } from '#src/components/current-password-field.tsx';
import { NewPasswordFields } from '#src/components/password-field.tsx';
import { confirmationMismatch, useApiForm, useFieldValues } from '#src/lib/forms.ts';
import { updatePassword } from '../api/account-api.ts';
import { ProfileSection } from './profile-section.tsx';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/** Password update: current password, new password (8–128) and its confirmation. */
export function UpdatePasswordForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const form = useApiForm(FIELDS);
  const { values, set, setValues } = useFieldValues(EMPTY, form.clearError);

  const submit = async () => {
    const extra = confirmationMismatch(values, t);
    if (await form.submit(updatePasswordSchema, values, updatePassword, { extra, answer: 'handle' })) setValues(EMPTY);
  };

  return (
    <ProfileSection id="update-password" title={t('account.profile.password.heading')} intro={t('account.profile.password.intro')}>
      <ApiForm form={form} onSubmit={submit}>
        {/* The account's e-mail, so password managers file the new password under the right account. */}
        <input type="email" name="email" autoComplete="username" value={user.email} readOnly hidden />
        <CurrentPasswordField
          label={t('account.profile.password.current')}
          name="current_password"
          value={values.current_password}
          onValue={set('current_password')}
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
      </ApiForm>
    </ProfileSection>
  );
}
