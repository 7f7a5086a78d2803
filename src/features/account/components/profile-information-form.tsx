import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { profileInformationSchema, type User } from '#contract/auth.ts';
import { FormError } from '#src/components/form-error.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
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
  const [values, setValues] = useState({ name: user.name, email: user.email });
  const emailChanged = values.email.trim().toLowerCase() !== user.email.toLowerCase();

  const submit = async () => {
    const input = form.validate(profileInformationSchema, values);
    if (!input) return;
    const res = await form.run(() => updateProfileInformation(input));
    if (!res) return;
    handleAnswer(res, form.ui);
    // The screen re-keys this form on the fresh user (a changed e-mail is now unverified).
    await refreshUser(queryClient).catch(() => null);
  };

  return (
    <ProfileSection id="profile-information" title={t('account.profile.info.heading')} intro={t('account.profile.info.intro')}>
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
          <TextInput
            label={t('auth.fields.name')}
            name="name"
            autoComplete="name"
            required
            value={values.name}
            onChange={(e) => {
              const name = e.currentTarget.value;
              setValues((v) => ({ ...v, name }));
              form.clearError('name');
            }}
            error={form.errors.name}
          />
          <EmailField
            value={values.email}
            autoComplete="email"
            error={form.errors.email}
            onValue={(email) => {
              setValues((v) => ({ ...v, email }));
              form.clearError('email');
            }}
          />
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
        </Stack>
      </form>
    </ProfileSection>
  );
}
