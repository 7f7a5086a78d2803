/**
 * The account's present password, as the login, the confirmation and the deletion ask for it: `current-password`
 * autocomplete so password managers fill it, and typing handed to `onValue` (which clears the field's error).
 */
import type { Ref } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { PasswordField } from './password-field.tsx';

export function CurrentPasswordField({
  value,
  onValue,
  error,
  label,
  name = 'password',
  ref,
}: {
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
  /** Defaults to "Password". */
  label?: string;
  name?: string;
  ref?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  return (
    <PasswordField
      label={label ?? t('auth.fields.password')}
      name={name}
      autoComplete="current-password"
      required
      ref={ref}
      value={value}
      onChange={(e) => onValue(e.currentTarget.value)}
      error={error}
    />
  );
}
