import { Alert, Button, Group, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiForm } from '#src/components/api-form.tsx';
import { useMemo, useState, type ComponentProps } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isLanguage } from '#contract/languages.ts';
import {
  PUBLICIST_PROFILE_FIELDS,
  publicistProfileInputSchema,
  type PublicistProfile,
  type PublicistProfileInput,
} from '#contract/publicists.ts';
import type { Answer } from '#contract/answers.ts';
import { ConflictError, type ApiResponse } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { countriesQueryOptions } from '../api/publicist-api.ts';

type Field = (typeof PUBLICIST_PROFILE_FIELDS)[number];

export const EMPTY_TRADER: PublicistProfileInput = {
  display_name: '',
  legal_name: '',
  tax_id: '',
  address: '',
  phone_country: 'ES',
  phone: '',
  email: '',
};

export function traderValues(p: PublicistProfile): PublicistProfileInput {
  return {
    display_name: p.display_name,
    legal_name: p.legal_name ?? '',
    tax_id: p.tax_id ?? '',
    address: p.address ?? '',
    phone_country: p.phone_country ?? 'ES',
    phone: p.phone ?? '',
    email: p.email ?? '',
  };
}

export interface TraderFormProps {
  initial: PublicistProfileInput;
  submitLabel: string;
  submit: (values: PublicistProfileInput) => Promise<ApiResponse<Answer>>;
  onSaved: (res: ApiResponse<Answer>) => void | Promise<void>;
  /** Edit: a stale version (409) loads the saved record into the form. */
  onConflict?: (current: PublicistProfile) => void;
  note?: string;
  onCancel?: () => void;
}

/**
 * The publicist's trader details (EU DSA art. 30): agency name, legal name, tax id, address, phone checked against the
 * chosen country's plan, e-mail — validated with the contract schema in the user's language, then by the server.
 */
export function TraderForm({ initial, submitLabel, submit, onSaved, onConflict, note, onCancel }: TraderFormProps) {
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const form = useApiForm(PUBLICIST_PROFILE_FIELDS);
  const [values, setValues] = useState<PublicistProfileInput>(initial);
  const [conflicted, setConflicted] = useState(false);
  const countries = useQuery(countriesQueryOptions());
  const phoneOptions = useMemo(
    () =>
      (countries.data ?? [])
        .filter((c) => c.phone_code)
        .map((c) => ({ value: c.iso2, label: `${c.names[lng] || c.name} (+${c.phone_code.replace(/^\+/, '')})` })),
    [countries.data, lng],
  );

  const set = (field: Field, value: string) => {
    form.clearError(field);
    setValues((v) => ({ ...v, [field]: value }));
  };

  const save = async () => {
    if (!form.validate(publicistProfileInputSchema, values)) return;
    const res = await form.run(() => submit(values), {
      onError: (err) => {
        const current = (err instanceof ConflictError ? err.data?.data : undefined) as { current?: PublicistProfile } | undefined;
        if (current?.current && onConflict) {
          setValues(traderValues(current.current));
          setConflicted(true);
          onConflict(current.current);
          return true;
        }
        return false;
      },
    });
    if (res) await onSaved(res);
  };

  const text = (field: Exclude<Field, 'phone_country'>, extra: Partial<ComponentProps<typeof TextInput>> = {}) => (
    <TextInput
      label={t(`publicist.profile.fields.${field}`)}
      name={field}
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={form.errors[field]}
      required
      {...extra}
    />
  );

  return (
    <ApiForm form={form} onSubmit={save}>
      {conflicted ? (
        <Alert color="orange" variant="light">
          {t('publicist.profile.conflict')}
        </Alert>
      ) : null}
      {text('display_name', { description: t('publicist.profile.hints.display_name'), autoComplete: 'organization', maxLength: 120 })}
      {text('legal_name', { description: t('publicist.profile.hints.legal_name'), maxLength: 160 })}
      {text('tax_id', { maxLength: 32, autoCapitalize: 'characters' })}
      {text('address', { autoComplete: 'street-address', maxLength: 300 })}
      <Select
        label={t('publicist.profile.fields.phone_country')}
        data={phoneOptions}
        value={values.phone_country}
        onChange={(v) => set('phone_country', v ?? '')}
        searchable
        error={form.errors.phone_country}
        nothingFoundMessage={t('publicist.form.nothingFound')}
        allowDeselect={false}
        required
      />
      {text('phone', { type: 'tel', inputMode: 'tel', autoComplete: 'tel-national' })}
      {text('email', { type: 'email', autoComplete: 'email', maxLength: 254 })}
      {note ? (
        <Alert color="blue" variant="light">
          {note}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        {onCancel ? (
          <Button variant="default" onClick={onCancel}>
            {t('publicist.profile.cancel')}
          </Button>
        ) : null}
        <Button type="submit" loading={form.pending}>
          {submitLabel}
        </Button>
      </Group>
    </ApiForm>
  );
}
