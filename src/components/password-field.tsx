import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useId, type Ref } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { PASSWORD_MAX, PASSWORD_MIN } from '#contract/roles.ts';

/**
 * Mantine's PasswordInput with a translated label on the show/hide button, and on the input `aria-invalid` when there
 * is an error and `aria-describedby` naming the hint and the error (Mantine's PasswordInput sets neither: screen
 * readers would not hear why the field was refused, and the form could not move the focus to it).
 */
export function PasswordField({ ref, ...props }: PasswordInputProps & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  const autoId = useId();
  const id = props.id ?? autoId;
  // Mantine names the hint and the error `${id}-description` / `${id}-error`.
  const describedBy = [props.description ? `${id}-description` : null, props.error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <PasswordInput
      ref={ref}
      aria-invalid={props.error ? true : undefined}
      aria-describedby={describedBy || undefined}
      {...props}
      id={id}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.togglePassword') }}
    />
  );
}

/**
 * A new password and its confirmation, as every form that sets a password shows them (register, reset,
 * change): the length hint, `new-password` autocomplete for password managers, and the field errors.
 */
export function NewPasswordFields({
  label,
  password,
  confirmation,
  errors,
  onPassword,
  onConfirmation,
}: {
  label: string;
  password: string;
  confirmation: string;
  errors: Partial<Record<'password' | 'password_confirmation', string>>;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={label}
        description={t('auth.fields.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        name="password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={errors.password}
      />
      <PasswordField
        label={t('auth.fields.passwordConfirmation')}
        name="password_confirmation"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        value={confirmation}
        onChange={(e) => onConfirmation(e.currentTarget.value)}
        error={errors.password_confirmation}
      />
    </>
  );
}
