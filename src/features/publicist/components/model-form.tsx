/** The publicist's managed-model screens: several models created at once, or one edited with its version; the inputs are the shared model-with-ad ones. */
import { Alert, Button, Fieldset, Group, Paper, Stack, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Answer } from '#contract/answers.ts';
import {
  MAX_MODELS_PER_REQUEST,
  PUBLICIST_MODEL_FIELDS,
  publicistModelsBulkSchema,
  publicistModelUpdateSchema,
  type PublicistModel,
  type PublicistModelInput,
} from '#contract/publicists.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';
import { ApiForm } from '#src/components/api-form.tsx';
import { ConflictDialog } from '#src/components/conflict-dialog.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { ModelAdSection } from '#src/components/model-ad-form/model-ad-fields.tsx';
import { EMPTY_MODEL_AD, modelAdValues, type ManagedModelValues } from '#src/components/model-ad-form/model-ad-values.ts';
import { saveModelAd } from '#src/components/model-ad-form/save-model-ad.ts';
import type { ApiResponse } from '#src/lib/api-client.ts';
import { serverFieldErrors, useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import type { SendOrQueueResult } from '#src/offline/send-or-queue.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import type { ModelAnswer, ModelsAnswer } from '../api/publicist-api.ts';

type Field = (typeof PUBLICIST_MODEL_FIELDS)[number];

export type ModelValues = ManagedModelValues;

export const EMPTY_MODEL: ModelValues = { ...EMPTY_MODEL_AD, contact_email: '' };

export function modelValues(m: PublicistModel): ModelValues {
  return { ...modelAdValues(m), contact_email: m.contact_email ?? '' };
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

const FIELDSETS = ['personal', 'contact', 'location', 'ad'] as const;

interface ModelFieldsProps {
  values: ModelValues;
  onChange: (next: ModelValues, field: Field) => void;
  error: (field: Field) => string | undefined;
  editing: boolean;
}

/** One model's inputs, all at once: personal details, contact for the consent request, place and the ad. */
function ModelFields({ values, onChange, error, editing }: ModelFieldsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      {FIELDSETS.map((section) => (
        <Fieldset key={section} legend={t(`publicist.form.${section}`)} variant="unstyled">
          <ModelAdSection section={section} who="publicist" values={values} onChange={onChange} error={error} editing={editing} />
        </Fieldset>
      ))}
    </Stack>
  );
}

const BULK_FIELDS = Array.from({ length: MAX_MODELS_PER_REQUEST }, (_, i) => PUBLICIST_MODEL_FIELDS.map((f) => `models.${i}.${f}`)).flat();

export interface CreateModelsFormProps {
  submit: (models: PublicistModelInput[]) => Promise<ApiResponse<ModelsAnswer>>;
  onSaved: (models: PublicistModel[]) => void;
  onCancel: () => void;
}

/** Create one model, or several at once ("Add another"): all are saved together or none (errors per model). */
export function CreateModelsForm({ submit, onSaved, onCancel }: CreateModelsFormProps) {
  const { t } = useTranslation();
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
    <ApiForm form={form} onSubmit={save} gap="lg">
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
    </ApiForm>
  );
}

export interface EditModelFormProps {
  model: PublicistModel;
  /** Sends the edit, or queues it in the outbox (offline, network failure, earlier edits still waiting). */
  submit: (
    values: PublicistModelInput & { version: number },
    formValues: ModelValues,
  ) => Promise<SendOrQueueResult<ApiResponse<ModelAnswer>>>;
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
  const { t } = useTranslation();
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
    await saveModelAd(form, t, {
      queued,
      dropQueued,
      send: () => submit(body, from),
      onStale: (saved) => {
        setValues(modelValues(saved));
        setVersion(saved.version);
        setConflicted(true);
        return true;
      },
      onQueued,
      onSaved,
    });
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
