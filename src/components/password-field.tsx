import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Mantine's PasswordInput with a translated label on the show/hide button, and `aria-invalid` on the input when
 * there is an error (Mantine only sets `data-invalid` there).
 */
export function PasswordField({ ref, ...props }: PasswordInputProps & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      ref={ref}
      aria-invalid={props.error ? true : undefined}
      {...props}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.togglePassword') }}
    />
  );
}
