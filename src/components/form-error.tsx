import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A form's error that belongs to no field. Focusable so the form can move the focus to it after a failed submit. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} tabIndex={-1} data-form-error>
      {message}
    </Alert>
  );
}
