import { Alert, Button, Group, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { profileInformationSchema, type User } from '#contract/auth.ts';
import { ApiForm } from '#src/components/api-form.tsx';
import { useApiForm, useFieldValues } from '#src/lib/forms.ts';
import { refreshUser } from '#src/lib/session.ts';
import { updateProfileInformation } from '../api/account-api.ts';
import { ProfileSection } from './profile-section.tsx';
import { EmailField } from '#src/components/email-field.tsx';

const FIELDS = ['name', 'email'] as const;

/** Profile information: name and e-mail. A new e-mail has to be verified again (the server says so). */
export function ProfileInformationForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useApiForm(FIELDS);
  const { values, set } = useFieldValues({ name: user.name, email: user.email }, form.clearError);
  const emailChanged = values.email.trim().toLowerCase() !== user.email.toLowerCase();

  const submit = async () => {
    if (!(await form.submit(profileInformationSchema, values, updateProfileInformation, { answer: 'handle' }))) return;
    // The screen re-keys this form on the fresh user (a changed e-mail is now unverified).
    await refreshUser(queryClient).catch(() => null);
  };

  return (
    <ProfileSection id="profile-information" title={t('account.profile.info.heading')} intro={t('account.profile.info.intro')}>
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
        {emailChanged ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
            {t('account.profile.info.emailChangeNote')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={form.pending}>
            {t('account.profile.save')}
          </Button>
        </Group>
      </ApiForm>
    </ProfileSection>
  );
}
