import {
  Alert,
  Button,
  Checkbox,
  Chip,
  Fieldset,
  Group,
  Input,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answer } from '#contract/answers.ts';
import { isLanguage, type Language } from '#contract/languages.ts';
import { MIN_AGE } from '#contract/profiles.ts';
import {
  MAX_MODELS_PER_REQUEST,
  PUBLICIST_MODEL_FIELDS,
  publicistModelsBulkSchema,
  publicistModelUpdateSchema,
  type PublicistModel,
  type PublicistModelInput,
} from '#contract/publicists.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';
import { ConflictDialog } from '#src/components/conflict-dialog.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { LocationMap, type PickedLocation } from '#src/components/location-map/location-map.tsx';
import { ConflictError, type ApiResponse } from '#src/lib/api-client.ts';
import { serverFieldErrors, useApiForm } from '#src/lib/forms.ts';
import { DEFAULT_PLACEMENT, handleAnswer } from '#src/lib/response-handler.ts';
import { OutboxQuotaError } from '#src/offline/outbox.ts';
import type { SendOrQueueResult } from '#src/offline/send-or-queue.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import { citiesQueryOptions, countriesQueryOptions, sectionsQueryOptions, statesQueryOptions } from '../api/publicist-api.ts';

type Field = (typeof PUBLICIST_MODEL_FIELDS)[number];

/** What the inputs hold: strings and nullable ids, parsed with the contract schema on submit. */
export interface ModelValues {
  display_name: string;
  birth_date: string;
  contact_email: string;
  phone_country: string;
  phone: string;
  whatsapp: boolean;
  country_id: number | null;
  state_id: number | null;
  city_id: number | null;
  section: SectionSlug | '';
  title: string;
  description: string;
}

export const EMPTY_MODEL: ModelValues = {
  display_name: '',
  birth_date: '',
  contact_email: '',
  phone_country: 'ES',
  phone: '',
  whatsapp: false,
  country_id: null,
  state_id: null,
  city_id: null,
  section: '',
  title: '',
  description: '',
};

export function modelValues(m: PublicistModel): ModelValues {
  return {
    display_name: m.display_name,
    birth_date: m.birth_date ?? '',
    contact_email: m.contact_email ?? '',
    phone_country: m.phone_country ?? 'ES',
    phone: m.phone ?? '',
    whatsapp: m.whatsapp,
    country_id: m.country_id,
    state_id: m.ad?.state_id ?? null,
    city_id: m.ad?.city_id ?? null,
    section: m.ad?.section ?? '',
    title: m.ad?.title ?? '',
    description: m.ad?.description ?? '',
  };
}

/** The body the contract expects (a phone country only goes with a phone). */
function toInput(v: ModelValues): PublicistModelInput {
  return {
    display_name: v.display_name,
    birth_date: v.birth_date,
    contact_email: v.contact_email.trim(),
    phone_country: v.phone.trim() ? v.phone_country : '',
    phone: v.phone.trim(),
    whatsapp: v.whatsapp,
    country_id: v.country_id ?? (undefined as unknown as number),
    state_id: v.state_id ?? (undefined as unknown as number),
    city_id: v.city_id ?? (undefined as unknown as number),
    section: (v.section || undefined) as SectionSlug,
    title: v.title,
    description: v.description,
  };
}

function latestAdultBirthDate(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - MIN_AGE, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
}

interface ModelFieldsProps {
  values: ModelValues;
  onChange: (next: ModelValues, field: Field) => void;
  error: (field: Field) => string | undefined;
  lng: Language;
  editing: boolean;
}

/** One model's inputs: personal details, contact for the consent request, place and the ad. */
function ModelFields({ values, onChange, error, lng, editing }: ModelFieldsProps) {
  const { t } = useTranslation();
  const countries = useQuery(countriesQueryOptions());
  const states = useQuery(statesQueryOptions(values.country_id ?? undefined));
  const cities = useQuery(citiesQueryOptions(values.state_id ?? undefined));
  const sections = useQuery(sectionsQueryOptions());
  const countryOptions = useMemo(
    () => (countries.data ?? []).map((c) => ({ value: String(c.id), label: c.names[lng] || c.name, iso2: c.iso2, phone: c.phone_code })),
    [countries.data, lng],
  );
  const phoneOptions = useMemo(
    () => countryOptions.filter((c) => c.phone).map((c) => ({ value: c.iso2, label: `${c.label} (+${c.phone.replace(/^\+/, '')})` })),
    [countryOptions],
  );
  const set = <K extends Field>(field: K, value: ModelValues[K], extra: Partial<ModelValues> = {}) =>
    onChange({ ...values, [field]: value, ...extra }, field);
  const label = (f: Field) => t(`publicist.form.fields.${f}`);
  // A choice on the map fills the three pickers at once: the same values, reported once per field so each one's
  // error is cleared.
  const pickLocation = (p: PickedLocation) => {
    const next = { ...values, country_id: p.country_id ?? values.country_id, state_id: p.state_id, city_id: p.city_id };
    for (const f of ['country_id', 'state_id', 'city_id'] as const) onChange(next, f);
  };

  return (
    <Stack gap="lg">
      <Fieldset legend={t('publicist.form.personal')} variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={label('display_name')}
            value={values.display_name}
            onChange={(e) => set('display_name', e.currentTarget.value)}
            error={error('display_name')}
            maxLength={60}
            required
          />
          <TextInput
            type="date"
            label={label('birth_date')}
            description={t('publicist.form.birthHint', { age: MIN_AGE })}
            value={values.birth_date}
            max={latestAdultBirthDate()}
            min="1900-01-01"
            onChange={(e) => set('birth_date', e.currentTarget.value)}
            error={error('birth_date')}
            required
          />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend={t('publicist.form.contact')} variant="unstyled">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('publicist.form.contactHint')}
            {editing ? ` ${t('publicist.form.contactChangeHint')}` : ''}
          </Text>
          <TextInput
            type="email"
            label={label('contact_email')}
            value={values.contact_email}
            onChange={(e) => set('contact_email', e.currentTarget.value)}
            error={error('contact_email')}
            maxLength={254}
            autoComplete="off"
            required
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={label('phone_country')}
              data={phoneOptions}
              value={values.phone_country}
              onChange={(v) => set('phone_country', v ?? 'ES')}
              searchable
              error={error('phone_country')}
              nothingFoundMessage={t('publicist.form.nothingFound')}
              allowDeselect={false}
            />
            <TextInput
              type="tel"
              inputMode="tel"
              label={label('phone')}
              value={values.phone}
              onChange={(e) => set('phone', e.currentTarget.value)}
              error={error('phone')}
              autoComplete="off"
            />
          </SimpleGrid>
          <Checkbox label={label('whatsapp')} checked={values.whatsapp} onChange={(e) => set('whatsapp', e.currentTarget.checked)} />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('publicist.form.location')} variant="unstyled">
        <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
          <Select
            label={label('country_id')}
            data={countryOptions.map(({ value, label: l }) => ({ value, label: l }))}
            value={values.country_id ? String(values.country_id) : null}
            onChange={(v) => set('country_id', v ? Number(v) : null, { state_id: null, city_id: null })}
            searchable
            error={error('country_id')}
            nothingFoundMessage={t('publicist.form.nothingFound')}
            required
          />
          <Select
            label={label('state_id')}
            data={(states.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            value={values.state_id ? String(values.state_id) : null}
            onChange={(v) => set('state_id', v ? Number(v) : null, { city_id: null })}
            disabled={!values.country_id}
            searchable
            error={error('state_id')}
            nothingFoundMessage={t('publicist.form.nothingFound')}
            required
          />
          <Select
            label={label('city_id')}
            data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={values.city_id ? String(values.city_id) : null}
            onChange={(v) => set('city_id', v ? Number(v) : null)}
            disabled={!values.state_id}
            searchable
            limit={100}
            error={error('city_id')}
            nothingFoundMessage={t('publicist.form.nothingFound')}
            required
          />
        </SimpleGrid>
        <LocationMap
          country={countries.data?.find((c) => c.id === values.country_id)?.iso2}
          states={values.country_id ? states.data : undefined}
          cities={values.state_id ? cities.data : undefined}
          stateId={values.state_id}
          cityId={values.city_id}
          onPick={pickLocation}
          height={240}
        />
      </Fieldset>
      <Fieldset legend={t('publicist.form.ad')} variant="unstyled">
        <Stack gap="sm">
          <Input.Wrapper label={label('section')} error={error('section')} required>
            <Chip.Group multiple={false} value={values.section} onChange={(v) => set('section', v as SectionSlug)}>
              <Group gap="xs" mt={6} role="radiogroup" aria-label={label('section')}>
                {(sections.data ?? []).map((s) => (
                  <Chip key={s.slug} value={s.slug} type="radio" color={s.color} variant="outline">
                    {s.names[lng] || s.name}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Input.Wrapper>
          <TextInput
            label={label('title')}
            value={values.title}
            onChange={(e) => set('title', e.currentTarget.value)}
            error={error('title')}
            maxLength={80}
            required
          />
          <Textarea
            label={label('description')}
            description={t('publicist.form.descriptionCount', { count: values.description.trim().length, max: 3000 })}
            value={values.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            error={error('description')}
            autosize
            minRows={4}
            maxLength={3000}
            required
          />
        </Stack>
      </Fieldset>
    </Stack>
  );
}

const BULK_FIELDS = Array.from({ length: MAX_MODELS_PER_REQUEST }, (_, i) => PUBLICIST_MODEL_FIELDS.map((f) => `models.${i}.${f}`)).flat();

export interface CreateModelsFormProps {
  submit: (models: PublicistModelInput[]) => Promise<ApiResponse<Answer & { data: PublicistModel[] }>>;
  onSaved: (models: PublicistModel[]) => void;
  onCancel: () => void;
}

/** Create one model, or several at once ("Add another"): all are saved together or none (errors per model). */
export function CreateModelsForm({ submit, onSaved, onCancel }: CreateModelsFormProps) {
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const form = useApiForm(BULK_FIELDS);
  const [models, setModels] = useState<ModelValues[]>([EMPTY_MODEL]);

  const save = async () => {
    const inputs = models.map(toInput);
    if (!form.validate(publicistModelsBulkSchema, { models: inputs })) return;
    const res = await form.run(() => submit(inputs));
    if (!res) return;
    handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
    onSaved(res.data.data);
  };

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="lg">
        <FormError message={form.errors._} />
        {models.map((values, i) => (
          <Paper key={i} withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby={`model-${i}-heading`}>
            <Stack gap="md">
              <Group justify="space-between">
                <Title order={2} size="h3" id={`model-${i}-heading`}>
                  {t('publicist.form.modelN', { n: i + 1 })}
                </Title>
                {models.length > 1 ? (
                  <Button
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => {
                      form.reset();
                      setModels((all) => all.filter((_, j) => j !== i));
                    }}
                  >
                    {t('publicist.form.remove', { n: i + 1 })}
                  </Button>
                ) : null}
              </Group>
              <ModelFields
                values={values}
                lng={lng}
                editing={false}
                error={(f) => form.errors[`models.${i}.${f}`]}
                onChange={(next, field) => {
                  form.clearError(`models.${i}.${field}`);
                  setModels((all) => all.map((m, j) => (j === i ? next : m)));
                }}
              />
            </Stack>
          </Paper>
        ))}
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={models.length >= MAX_MODELS_PER_REQUEST}
            onClick={() => setModels((all) => [...all, EMPTY_MODEL])}
          >
            {t('publicist.form.addAnother')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onCancel}>
              {t('publicist.form.cancel')}
            </Button>
            <Button type="submit" loading={form.pending}>
              {models.length === 1 ? t('publicist.form.submitOne') : t('publicist.form.submitMany', { count: models.length })}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

export interface EditModelFormProps {
  model: PublicistModel;
  /** Sends the edit, or queues it in the outbox (offline, network failure, earlier edits still waiting). */
  submit: (
    values: PublicistModelInput & { version: number },
    formValues: ModelValues,
  ) => Promise<SendOrQueueResult<ApiResponse<Answer & { data: PublicistModel }>>>;
  onSaved: (model: PublicistModel) => void;
  /** The edit was stored on the device, to be sent when the network is back. */
  onQueued: () => void;
  onCancel: () => void;
  /** A queued edit of this model: its values come back to the form, with the server's errors or the saved record. */
  queued?: OutboxOp;
  /** Removes the queued edit (the user's next save, or "take the saved one", replaces it). */
  dropQueued?: () => Promise<void>;
}

/**
 * Edit one model with the version it was based on; a stale version (409) loads the saved record. An edit that waited
 * in the outbox and came back stale opens the side-by-side view (keep mine / take the saved one / merge per field);
 * one the server refused (422) comes back with its errors on the fields.
 */
export function EditModelForm({ model, submit, onSaved, onQueued, onCancel, queued, dropQueued }: EditModelFormProps) {
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const form = useApiForm(PUBLICIST_MODEL_FIELDS);
  const queuedValues = queued?.meta?.values as ModelValues | undefined;
  const [values, setValues] = useState<ModelValues>(() => queuedValues ?? modelValues(model));
  const [version, setVersion] = useState(queued?.baseVersion ?? model.version);
  const [conflicted, setConflicted] = useState(false);
  const current = queued?.status === 'conflict' ? (queued.current as PublicistModel | undefined) : undefined;
  const [stale, setStale] = useState<PublicistModel | undefined>(current);
  const { fail } = form;

  useEffect(() => {
    if (queued?.status === 'invalid' && queued.error) fail(serverFieldErrors(queued.error as Answer, PUBLICIST_MODEL_FIELDS));
  }, [queued, fail]);

  const save = async (from: ModelValues = values, base: number = version) => {
    const body = { ...toInput(from), version: base };
    if (!form.validate(publicistModelUpdateSchema, body)) return;
    let wasQueued = false;
    const res = await form.run(
      async () => {
        // This save replaces what was waiting (or stuck) in the outbox for this model.
        if (queued) await dropQueued?.();
        const result = await submit(body, from);
        if (result.queued) {
          wasQueued = true;
          return { status: 202, data: undefined as unknown as Answer & { data: PublicistModel } };
        }
        return result.sent;
      },
      {
        onError: (err) => {
          if (err instanceof OutboxQuotaError) {
            form.fail({ _: t('outbox.quota') });
            return true;
          }
          const data = (err instanceof ConflictError ? err.data?.data : undefined) as { current?: PublicistModel } | undefined;
          if (!data?.current) return false;
          setValues(modelValues(data.current));
          setVersion(data.current.version);
          setConflicted(true);
          return true;
        },
      },
    );
    if (!res) return;
    if (wasQueued) {
      form.ui.notify({ type: 'info', message: t('outbox.savedPending'), placement: DEFAULT_PLACEMENT });
      onQueued();
      return;
    }
    handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
    onSaved(res.data.data);
  };

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <FormError message={form.errors._} />
          {queued?.status === 'invalid' ? (
            <Alert color="red" variant="light">
              {t('outbox.invalidText')}
            </Alert>
          ) : null}
          {conflicted ? (
            <Alert color="orange" variant="light">
              {t('publicist.form.conflict')}
            </Alert>
          ) : null}
          <ModelFields
            values={values}
            lng={lng}
            editing
            error={(f) => form.errors[f]}
            onChange={(next, field) => {
              form.clearError(field);
              setValues(next);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t('publicist.form.cancel')}
            </Button>
            <Button type="submit" loading={form.pending}>
              {t('publicist.form.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {stale ? (
        <ConflictDialog
          mine={{ ...values }}
          theirs={modelValues(stale)}
          text={t('outbox.conflictText')}
          labels={(f) => t(`publicist.form.fields.${f}`)}
          onKeepMine={() => {
            setVersion(stale.version);
            setStale(undefined);
            void save(values, stale.version);
          }}
          onUseTheirs={() => {
            setValues(modelValues(stale));
            setVersion(stale.version);
            setStale(undefined);
            void dropQueued?.();
          }}
          onMerge={(merged) => {
            setValues(merged);
            setVersion(stale.version);
            setStale(undefined);
            void save(merged, stale.version);
          }}
          onClose={() => setStale(undefined)}
        />
      ) : null}
    </form>
  );
}
