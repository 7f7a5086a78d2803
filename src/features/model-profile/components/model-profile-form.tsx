import {
  Alert,
  Button,
  Checkbox,
  Chip,
  Group,
  Input,
  Paper,
  Progress,
  Select,
  Stack,
  Stepper,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { isLanguage } from '#contract/languages.ts';
import {
  adStepSchema,
  contactStepSchema,
  locationStepSchema,
  MIN_AGE,
  MODEL_WITH_AD_FIELDS,
  personalStepSchema,
  type ModelProfile,
  type ModelWithAd,
} from '#contract/profiles.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';
import { FormError } from '#src/components/form-error.tsx';
import { LocationMap, type PickedLocation } from '#src/components/location-map/location-map.tsx';
import type { Answer } from '#contract/answers.ts';
import { ConflictError, type ApiResponse } from '#src/lib/api-client.ts';
import { serverFieldErrors, useApiForm } from '#src/lib/forms.ts';
import { DEFAULT_PLACEMENT, handleAnswer } from '#src/lib/response-handler.ts';
import { OutboxQuotaError } from '#src/offline/outbox.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import {
  citiesQueryOptions,
  countriesQueryOptions,
  sectionsQueryOptions,
  statesQueryOptions,
  type ProfileAnswer,
} from '../api/model-profile-api.ts';
import { useDraftState } from '../lib/draft.ts';
import { ConflictDialog } from '#src/components/conflict-dialog.tsx';

export type Field = (typeof MODEL_WITH_AD_FIELDS)[number];

/** What the inputs hold: strings and nullable ids, parsed by the step schemas on "Next". */
export interface FormValues {
  display_name: string;
  birth_date: string;
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

export const EMPTY_VALUES: FormValues = {
  display_name: '',
  birth_date: '',
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

export function valuesFromProfile(p: ModelProfile): FormValues {
  return {
    display_name: p.display_name,
    birth_date: p.birth_date ?? '',
    phone_country: p.phone_country ?? 'ES',
    phone: p.phone ?? '',
    whatsapp: p.whatsapp,
    country_id: p.country_id,
    state_id: p.ad?.state_id ?? null,
    city_id: p.ad?.city_id ?? null,
    section: p.ad?.section ?? '',
    title: p.ad?.title ?? '',
    description: p.ad?.description ?? '',
  };
}

const STEPS: { key: string; schema: z.ZodType; fields: readonly Field[] }[] = [
  { key: 'personal', schema: personalStepSchema, fields: ['display_name', 'birth_date'] },
  { key: 'contact', schema: contactStepSchema, fields: ['phone_country', 'phone', 'whatsapp'] },
  { key: 'location', schema: locationStepSchema, fields: ['country_id', 'state_id', 'city_id'] },
  { key: 'ad', schema: adStepSchema, fields: ['section', 'title', 'description'] },
];

/** The id of the country whose ISO code is `iso2` (the phone's country), else Spain's; null when neither is known. */
export function countryFor(countries: readonly { id: number; iso2: string }[], iso2: string): number | null {
  const find = (code: string) => countries.find((c) => c.iso2.toUpperCase() === code.toUpperCase())?.id;
  return find(iso2) ?? find('ES') ?? null;
}

/** The latest birth date that is 18 today, for the date picker's `max`. */
function latestAdultBirthDate(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - MIN_AGE, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
}

export interface ModelProfileFormProps {
  mode: 'create' | 'edit';
  /** localStorage key of the draft (per user, per form). */
  draftKey: string;
  initial: FormValues;
  /** Edit mode: the version the form is based on. */
  version?: number;
  /** Sends the data; an edit may instead be queued in the outbox (offline, network failure): 'queued'. */
  submit: (values: ModelWithAd, version: number | undefined, formValues: FormValues) => Promise<ApiResponse<ProfileAnswer> | 'queued'>;
  onSaved: (profile: ModelProfile) => void;
  /** The edit was stored on the device, to be sent when the network is back. */
  onQueued?: () => void;
  /** A queued edit of this profile that came back stale (409, with the saved record) or refused (422). */
  queued?: OutboxOp;
  /** Removes the queued edit (the next save, or "take the saved one", replaces it). */
  dropQueued?: () => Promise<void>;
  /** Shown after the data steps (create: the photos). */
  finalStep?: { label: string; description: string };
  submitLabel: string;
}

/**
 * Profile/Model Create and Update: personal data, contact, location, section and ad text — one step at a time,
 * each checked with its contract schema in the user's language before moving on, the whole thing kept as a
 * draft across reloads. Server answers land on the step of the field they name; a stale edit (409) opens the
 * conflict dialog instead of overwriting someone else's change.
 */
export function ModelProfileForm(props: ModelProfileFormProps) {
  const { mode, draftKey, initial, submit, onSaved, finalStep, submitLabel, queued, dropQueued } = props;
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const form = useApiForm(MODEL_WITH_AD_FIELDS);
  const { draft, update, discard, restored } = useDraftState<FormValues>(draftKey, () => ({
    values: initial,
    step: 0,
    baseVersion: props.version,
    savedAt: 0,
  }));
  const [version, setVersion] = useState(draft.baseVersion ?? props.version);
  const queuedCurrent = queued?.status === 'conflict' ? (queued.current as ModelProfile | undefined) : undefined;
  const [conflict, setConflict] = useState<{ current: ModelProfile; values: Partial<FormValues> } | null>(() =>
    queuedCurrent ? { current: queuedCurrent, values: valuesFromProfile(queuedCurrent) } : null,
  );
  const values = draft.values;
  const step = Math.min(draft.step, STEPS.length - 1);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const countries = useQuery(countriesQueryOptions());
  const states = useQuery(statesQueryOptions(values.country_id ?? undefined));
  const cities = useQuery(citiesQueryOptions(values.state_id ?? undefined));
  const sections = useQuery(sectionsQueryOptions());

  const set = <K extends Field>(field: K, value: FormValues[K]) => {
    form.clearError(field);
    update((d) => ({ ...d, values: { ...d.values, [field]: value } }));
  };
  const goTo = (next: number) => {
    update((d) => ({ ...d, step: next }));
    // The new step's heading takes the focus, so screen readers announce where the user is.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const countryOptions = useMemo(
    () => (countries.data ?? []).map((c) => ({ value: String(c.id), label: c.names[lng] || c.name, iso2: c.iso2, phone: c.phone_code })),
    [countries.data, lng],
  );
  const phoneOptions = useMemo(
    () => countryOptions.filter((c) => c.phone).map((c) => ({ value: c.iso2, label: `${c.label} (+${c.phone.replace(/^\+/, '')})` })),
    [countryOptions],
  );

  // A choice on the map fills the three pickers at once.
  const pickLocation = (p: PickedLocation) => {
    for (const f of ['country_id', 'state_id', 'city_id'] as const) form.clearError(f);
    update((d) => ({
      ...d,
      values: { ...d.values, country_id: p.country_id ?? d.values.country_id, state_id: p.state_id, city_id: p.city_id },
    }));
  };

  const validateStep = (index: number) => form.validate(STEPS[index]!.schema, values);

  const next = () => {
    if (validateStep(step) === undefined) return;
    if (step >= STEPS.length - 1) return;
    // The location step starts in the phone's country (España by default); the user may pick another.
    if (STEPS[step + 1]!.key === 'location' && values.country_id === null) {
      const country = countryFor(countries.data ?? [], values.phone_country);
      if (country) update((d) => ({ ...d, values: { ...d.values, country_id: country, state_id: null, city_id: null } }));
    }
    goTo(step + 1);
  };

  const save = async (base: number | undefined, from: FormValues = values) => {
    // Every step again: a restored draft may hold values that were never checked.
    for (let i = 0; i < STEPS.length; i++) {
      if (form.validate(STEPS[i]!.schema, from) === undefined) {
        if (i !== step) goTo(i);
        return;
      }
    }
    const body = {
      ...(personalStepSchema.parse(from) as object),
      ...(contactStepSchema.parse(from) as object),
      ...(locationStepSchema.parse(from) as object),
      ...(adStepSchema.parse(from) as object),
    } as ModelWithAd;
    let wasQueued = false;
    const res = await form.run(
      async () => {
        // This save replaces what was waiting (or stuck) in the outbox for this profile.
        if (queued) await dropQueued?.();
        const result = await submit(body, base, from);
        if (result !== 'queued') return result;
        wasQueued = true;
        return { status: 202, data: undefined as unknown as ProfileAnswer };
      },
      {
        onError: (err) => {
          if (err instanceof OutboxQuotaError) {
            form.fail({ _: t('outbox.quota') });
            return true;
          }
          if (err instanceof ConflictError && mode === 'edit') {
            const data = err.data?.data as { current?: ModelProfile } | undefined;
            if (data?.current) {
              setConflict({ current: data.current, values: valuesFromProfile(data.current) });
              return true;
            }
          }
          return false;
        },
      },
    );
    if (!res) return;
    discard();
    if (wasQueued) {
      form.ui.notify({ type: 'info', message: t('outbox.savedPending'), placement: DEFAULT_PLACEMENT });
      props.onQueued?.();
      return;
    }
    handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
    onSaved(res.data.data);
  };

  const { fail } = form;
  useEffect(() => {
    if (queued?.status === 'invalid' && queued.error) fail(serverFieldErrors(queued.error as Answer, MODEL_WITH_AD_FIELDS));
  }, [queued, fail]);

  // A server answer can name a field of an earlier step (e.g. a forbidden word in the name): show that step.
  const erroredStep = STEPS.findIndex((s) => s.fields.some((f) => form.errors[f]));
  useEffect(() => {
    if (erroredStep >= 0) update((d) => (d.step === erroredStep ? d : { ...d, step: erroredStep }));
  }, [erroredStep, update]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (step < STEPS.length - 1) next();
    else void save(version);
  };

  const err = (f: Field) => form.errors[f];
  const stepBody: ReactNode[] = [
    <Stack gap="md" key="personal">
      <TextInput
        label={t('modelProfile.fields.display_name')}
        description={t('modelProfile.hints.display_name')}
        value={values.display_name}
        onChange={(e) => set('display_name', e.currentTarget.value)}
        error={err('display_name')}
        maxLength={60}
        autoComplete="nickname"
        required
      />
      <TextInput
        type="date"
        label={t('modelProfile.fields.birth_date')}
        description={t('modelProfile.hints.birth_date', { age: MIN_AGE })}
        value={values.birth_date}
        max={latestAdultBirthDate()}
        min="1900-01-01"
        onChange={(e) => set('birth_date', e.currentTarget.value)}
        error={err('birth_date')}
        autoComplete="bday"
        required
      />
    </Stack>,
    <Stack gap="md" key="contact">
      <Select
        label={t('modelProfile.fields.phone_country')}
        data={phoneOptions}
        value={values.phone_country}
        onChange={(v) => set('phone_country', v ?? '')}
        searchable
        error={err('phone_country')}
        nothingFoundMessage={t('modelProfile.nothingFound')}
        allowDeselect={false}
        required
      />
      <TextInput
        type="tel"
        label={t('modelProfile.fields.phone')}
        description={t('modelProfile.hints.phone')}
        value={values.phone}
        onChange={(e) => set('phone', e.currentTarget.value)}
        error={err('phone')}
        autoComplete="tel-national"
        inputMode="tel"
        required
      />
      <Checkbox
        label={t('modelProfile.fields.whatsapp')}
        checked={values.whatsapp}
        onChange={(e) => set('whatsapp', e.currentTarget.checked)}
      />
    </Stack>,
    <Stack gap="md" key="location">
      <Text size="sm" c="dimmed">
        {t('modelProfile.hints.location')}
      </Text>
      <Select
        label={t('modelProfile.fields.country_id')}
        data={countryOptions.map(({ value, label }) => ({ value, label }))}
        value={values.country_id ? String(values.country_id) : null}
        onChange={(v) => {
          form.clearError('country_id');
          update((d) => ({ ...d, values: { ...d.values, country_id: v ? Number(v) : null, state_id: null, city_id: null } }));
        }}
        searchable
        error={err('country_id')}
        nothingFoundMessage={t('modelProfile.nothingFound')}
        allowDeselect={false}
        required
      />
      <Select
        label={t('modelProfile.fields.state_id')}
        data={(states.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
        value={values.state_id ? String(values.state_id) : null}
        onChange={(v) => update((d) => ({ ...d, values: { ...d.values, state_id: v ? Number(v) : null, city_id: null } }))}
        disabled={!values.country_id}
        searchable
        error={err('state_id') ?? (values.country_id && states.data?.length === 0 ? t('modelProfile.noStates') : undefined)}
        nothingFoundMessage={t('modelProfile.nothingFound')}
        required
      />
      <Select
        label={t('modelProfile.fields.city_id')}
        data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        value={values.city_id ? String(values.city_id) : null}
        onChange={(v) => set('city_id', v ? Number(v) : null)}
        disabled={!values.state_id}
        searchable
        limit={100}
        error={err('city_id')}
        nothingFoundMessage={t('modelProfile.nothingFound')}
        required
      />
      <LocationMap
        country={countries.data?.find((c) => c.id === values.country_id)?.iso2}
        states={values.country_id ? states.data : undefined}
        cities={values.state_id ? cities.data : undefined}
        stateId={values.state_id}
        cityId={values.city_id}
        onPick={pickLocation}
      />
    </Stack>,
    <Stack gap="md" key="ad">
      <Input.Wrapper label={t('modelProfile.fields.section')} error={err('section')} required>
        <Chip.Group multiple={false} value={values.section} onChange={(v) => set('section', v as SectionSlug)}>
          <Group gap="xs" mt={6} role="radiogroup" aria-label={t('modelProfile.fields.section')}>
            {(sections.data ?? []).map((s) => (
              <Chip key={s.slug} value={s.slug} type="radio" color={s.color} variant="outline">
                {s.names[lng] || s.name}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
      <TextInput
        label={t('modelProfile.fields.title')}
        value={values.title}
        onChange={(e) => set('title', e.currentTarget.value)}
        error={err('title')}
        maxLength={80}
        required
      />
      <Textarea
        label={t('modelProfile.fields.description')}
        description={t('modelProfile.hints.description', { count: values.description.trim().length, max: 3000 })}
        value={values.description}
        onChange={(e) => set('description', e.currentTarget.value)}
        error={err('description')}
        autosize
        minRows={5}
        maxLength={3000}
        required
      />
    </Stack>,
  ];

  const labels = STEPS.map((s) => t(`modelProfile.steps.${s.key}`));
  const last = step === STEPS.length - 1;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-describedby="model-profile-progress">
        <Stack gap="lg">
          {/* Phones get a progress bar; the labelled stepper needs room. */}
          <Progress hiddenFrom="sm" value={((step + 1) / (STEPS.length + (finalStep ? 1 : 0))) * 100} size="sm" aria-hidden />
          <Stepper
            visibleFrom="sm"
            active={step}
            onStepClick={(i) => {
              // Back freely; forward only through validation.
              if (i < step) goTo(i);
            }}
            size="sm"
            allowNextStepsSelect={false}
            aria-label={t('modelProfile.stepsLabel')}
          >
            {labels.map((label) => (
              <Stepper.Step key={label} label={<span className="vitrina-step-label">{label}</span>} />
            ))}
            {finalStep ? <Stepper.Step label={finalStep.label} /> : null}
          </Stepper>
          <div>
            <Text id="model-profile-progress" size="sm" c="dimmed">
              {t('modelProfile.progress', { step: step + 1, total: STEPS.length + (finalStep ? 1 : 0) })}
            </Text>
            <Title order={2} size="h3" ref={headingRef} tabIndex={-1}>
              {labels[step]}
            </Title>
          </div>
          {restored && mode === 'create' ? (
            <Alert color="blue" variant="light" icon={<IconDeviceFloppy size={18} aria-hidden />}>
              {t('modelProfile.draftRestored')}
            </Alert>
          ) : null}
          {stepBody[step]}
          <FormError message={form.errors._} />
          <Group justify="space-between">
            <Button variant="default" onClick={() => goTo(step - 1)} disabled={step === 0 || form.pending}>
              {t('modelProfile.back')}
            </Button>
            <Button type="submit" loading={form.pending}>
              {last ? submitLabel : t('modelProfile.next')}
            </Button>
          </Group>
        </Stack>
      </form>
      {conflict ? (
        <ConflictDialog
          mine={{ ...values }}
          theirs={conflict.values}
          labels={(f) => t(`modelProfile.fields.${f}`)}
          format={(f, v) => {
            const ad = conflict.current.ad;
            if (f === 'country_id') return countryOptions.find((c) => c.value === String(v))?.label;
            if (f === 'state_id') return states.data?.find((s) => s.id === v)?.name ?? (ad && ad.state_id === v ? ad.state : undefined);
            if (f === 'city_id') return cities.data?.find((c) => c.id === v)?.name ?? (ad && ad.city_id === v ? ad.city : undefined);
            if (f === 'section') return sections.data?.find((s) => s.slug === v)?.names[lng];
            return undefined;
          }}
          onKeepMine={() => {
            setVersion(conflict.current.version);
            setConflict(null);
            void save(conflict.current.version);
          }}
          onUseTheirs={() => {
            update((d) => ({ ...d, values: valuesFromProfile(conflict.current), baseVersion: conflict.current.version }));
            setVersion(conflict.current.version);
            setConflict(null);
            void dropQueued?.();
          }}
          onMerge={(merged) => {
            update((d) => ({ ...d, values: merged, baseVersion: conflict.current.version }));
            setVersion(conflict.current.version);
            setConflict(null);
            void save(conflict.current.version, merged);
          }}
          text={queuedCurrent ? t('outbox.conflictText') : undefined}
          onClose={() => setConflict(null)}
        />
      ) : null}
    </Paper>
  );
}
