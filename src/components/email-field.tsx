import { TextInput } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';

/**
 * The e-mail field of the account forms: e-mail keyboard on phones, and the autocomplete hint password managers
 * need (`username` where the address identifies an existing account, `email` where one is being entered).
 */
export function EmailField({
  value,
  onValue,
  error,
  autoComplete,
}: {
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
  autoComplete: 'email' | 'username';
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('auth.fields.email')}
      type="email"
      name="email"
      autoComplete={autoComplete}
      inputMode="email"
      required
      value={value}
      onChange={(e) => onValue(e.currentTarget.value)}
      error={error}
    />
  );
}
