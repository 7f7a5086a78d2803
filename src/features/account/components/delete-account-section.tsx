import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { confirmPasswordSchema, type User } from '#contract/auth.ts';
import { ApiForm } from '#src/components/api-form.tsx';
import { CurrentPasswordField } from '#src/components/current-password-field.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { confirmPassword, useEndSession } from '#src/lib/session.ts';
import { deleteAccount, passwordConfirmedLately } from '../api/account-api.ts';
import { ProfileSection } from './profile-section.tsx';

const FIELDS = ['password'] as const;

type Step = 'closed' | 'confirm' | 'password';

const needsPassword = (err: unknown) => err instanceof ApiError && (err.code === 'password_confirmation_required' || err.status === 423);

/**
 * Account deletion: a red danger zone, a confirmation modal, and — when the server answers 423 because the
 * password was not confirmed in the last 3 hours — a password prompt in the same modal that confirms and retries.
 */
export function DeleteAccountSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const lng = useLng();
  const endSession = useEndSession();
  const form = useApiForm(FIELDS);
  const [step, setStep] = useState<Step>('closed');
  const [password, setPassword] = useState('');
  const [checking, setChecking] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  // The modal is already open when the prompt replaces the confirmation: move the focus to the password.
  useEffect(() => {
    if (step === 'password') passwordRef.current?.focus();
  }, [step]);

  const close = () => {
    if (form.pending) return;
    setStep('closed');
    setPassword('');
    form.reset();
  };

  /**
   * From the confirmation: the password prompt comes first when the session has not confirmed it lately. Asked before,
   * not learnt from the deletion's 423, which the browser logs as an error; the 423 stays handled (a confirmation
   * can lapse in between). If the question fails, the deletion's own answer decides.
   */
  const confirmThenRemove = async () => {
    setChecking(true);
    const confirmed = await passwordConfirmedLately().catch(() => true);
    setChecking(false);
    if (confirmed) await remove();
    else setStep('password');
  };

  const remove = async () => {
    const res = await form.run(() => deleteAccount(user.id), {
      onError: (err) => {
        if (!needsPassword(err)) return false;
        setStep('password');
        return true;
      },
    });
    if (!res) return;
    setStep('closed');
    form.notify(res);
    await endSession(withLng(lng, res.data?.redirect ?? '/'));
  };

  const confirmAndRemove = async () => {
    const confirmed = await form.submit(confirmPasswordSchema, { password }, (input) => confirmPassword(input.password));
    if (confirmed) await remove();
  };

  return (
    <ProfileSection id="delete-account" danger title={t('account.profile.delete.heading')} intro={t('account.profile.delete.intro')}>
      <Group>
        <Button color="red" leftSection={<IconTrash size={18} aria-hidden />} onClick={() => setStep('confirm')}>
          {t('account.profile.delete.open')}
        </Button>
      </Group>

      <Modal
        opened={step !== 'closed'}
        onClose={close}
        centered
        title={step === 'password' ? t('account.profile.delete.passwordTitle') : t('account.profile.delete.confirmTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {step === 'confirm' ? (
          <Stack gap="md">
            <Text>{t('account.profile.delete.confirmText')}</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} data-autofocus disabled={form.pending}>
                {t('account.profile.delete.cancel')}
              </Button>
              <Button color="red" loading={form.pending || checking} onClick={() => void confirmThenRemove()}>
                {t('account.profile.delete.confirm')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <ApiForm form={form} onSubmit={confirmAndRemove} before={<Text>{t('account.profile.delete.passwordText')}</Text>}>
            <input type="email" name="email" autoComplete="username" value={user.email} readOnly hidden />
            <CurrentPasswordField
              ref={passwordRef}
              value={password}
              onValue={(v) => {
                setPassword(v);
                form.clearError('password');
              }}
              error={form.errors.password}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={form.pending}>
                {t('account.profile.delete.cancel')}
              </Button>
              <Button type="submit" color="red" loading={form.pending}>
                {t('account.profile.delete.confirmWithPassword')}
              </Button>
            </Group>
          </ApiForm>
        )}
      </Modal>
    </ProfileSection>
  );
}
