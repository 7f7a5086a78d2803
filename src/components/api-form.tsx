/**
 * The frame every `useApiForm` form repeated: a `<form>` without the browser's own checks (the schema's messages
 * are the ones shown), the submit kept in the page, and the form's general error first, where the focus lands.
 */
import { Stack, type MantineSpacing } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';
import { FormError } from './form-error.tsx';

export interface ApiFormState {
  formRef: RefObject<HTMLFormElement | null>;
  errors: { _?: string };
}

export function ApiForm({
  form,
  onSubmit,
  before,
  gap = 'md',
  children,
}: {
  form: ApiFormState;
  onSubmit: () => unknown;
  /** Shown above the general error (an explanation the error should follow). */
  before?: ReactNode;
  /** The space between the form's parts (a form of several sections wants more). */
  gap?: MantineSpacing;
  children: ReactNode;
}) {
  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <Stack gap={gap}>
        {before}
        <FormError message={form.errors._} />
        {children}
      </Stack>
    </form>
  );
}
