/**
 * The model's own profile and ad, one step at a time (the inputs are the shared model-with-ad ones): each step checked
 * with its contract schema before moving on, the whole kept as a draft across reloads.
 */
import { Alert, Button, Group, Paper, Progress, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import {
  adStepSchema,
  contactStepSchema,
  locationStepSchema,
  MODEL_WITH_AD_FIELDS,
  personalStepSchema,
  type ModelProfile,
  type ModelWithAd,
} from '#contract/profiles.ts';
import { ConflictDialog } from '#src/components/conflict-dialog.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { ModelAdSection, useModelAdOptions, type ModelAdSectionKey } from '#src/components/model-ad-form/model-ad-fields.tsx';
import { countryFor, modelAdValues, type ModelAdValues } from '#src/components/model-ad-form/model-ad-values.ts';
import { saveModelAd } from '#src/components/model-ad-form/save-model-ad.ts';
import type { ApiResponse } from '#src/lib/api-client.ts';
import { serverFieldErrors, useApiForm } from '#src/lib/forms.ts';
import type { SendOrQueueResult } from '#src/offline/send-or-queue.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import type { ProfileAnswer } from '../api/model-profile-api.ts';
import { useDraftState } from '../lib/draft.ts';

export type Field = (typeof MODEL_WITH_AD_FIELDS)[number];
export type FormValues = ModelAdValues;

const STEPS: { key: ModelAdSectionKey; schema: z.ZodType; fields: readonly Field[] }[] = [
  { key: 'personal', schema: personalStepSchema, fields: ['display_name', 'birth_date'] },
  { key: 'contact', schema: contactStepSchema, fields: ['phone_country', 'phone', 'whatsapp'] },
  { key: 'location', schema: locationStepSchema, fields: ['country_id', 'state_id', 'city_id'] },
  { key: 'ad', schema: adStepSchema, fields: ['section', 'title', 'description'] },
];

export interface ModelProfileFormProps {
  mode: 'create' | 'edit';
  /** localStorage key of the draft (per user, per form). */
  draftKey: string;
  initial: FormValues;
  /** Edit mode: the version the form is based on. */
  version?: number;
  /** Sends the data; an edit may instead be queued in the outbox (offline, network failure): 'queued'. */
  submit: (
    values: ModelWithAd,
    version: number | undefined,
    formValues: FormValues,
  ) => Promise<SendOrQueueResult<ApiResponse<ProfileAnswer>>>;
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
  const { t } = useTranslation();
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
    queuedCurrent ? { current: queuedCurrent, values: modelAdValues(queuedCurrent) } : null,
  );
  const values = draft.values;
  const step = Math.min(draft.step, STEPS.length - 1);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const { lng, countries, states, cities, sections, countryOptions } = useModelAdOptions(values.country_id, values.state_id);
  const goTo = (next: number) => {
    update((d) => ({ ...d, step: next }));
    // The new step's heading takes the focus, so screen readers announce where the user is.
    requestAnimationFrame(() => headingRef.current?.focus());
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
    await saveModelAd(form, t, {
      queued,
      dropQueued,
      send: () => submit(body, base, from),
      onStale: (current) => {
        if (mode !== 'edit') return false;
        setConflict({ current, values: modelAdValues(current) });
        return true;
      },
      onQueued: () => {
        discard();
        props.onQueued?.();
      },
      onSaved: (saved) => {
        discard();
        onSaved(saved);
      },
    });
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

  const stepBody = STEPS.map((s) => (
    <ModelAdSection
      key={s.key}
      section={s.key}
      who="model"
      values={values}
      error={(f) => form.errors[f as Field]}
      onChange={(nextValues, field) => {
        form.clearError(field as Field);
        update((d) => ({ ...d, values: nextValues }));
      }}
    />
  ));

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
            update((d) => ({ ...d, values: modelAdValues(conflict.current), baseVersion: conflict.current.version }));
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
