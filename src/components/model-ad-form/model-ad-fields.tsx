/**
 * The inputs of the model with its ad, written once for both who fill them in: the model herself (one step at a
 * time, with the hints a first-time user needs) and her publicist (all at once, in a denser grid, with the contact the
 * consent request goes to). `who` picks what differs: texts, what is required, autocomplete and the layout.
 */
import { Checkbox, Chip, Group, Input, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isLanguage } from '#contract/languages.ts';
import { MIN_AGE } from '#contract/profiles.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';
import { LocationMap, type PickedLocation } from '#src/components/location-map/location-map.tsx';
import { citiesQueryOptions, countriesQueryOptions, sectionsQueryOptions, statesQueryOptions } from '#src/lib/reference-data.ts';
import { latestAdultBirthDate, type ManagedModelValues, type ModelAdValues } from './model-ad-values.ts';

export type ModelAdWho = 'model' | 'publicist';
export type ModelAdSectionKey = 'personal' | 'contact' | 'location' | 'ad';
type Field = keyof ManagedModelValues;

/** The translation keys each side's texts live under (the screens were written separately and keep their wording). */
const TEXT = {
  model: { fields: 'modelProfile.fields', nothingFound: 'modelProfile.nothingFound' },
  publicist: { fields: 'publicist.form.fields', nothingFound: 'publicist.form.nothingFound' },
} as const;

/** The countries, states, cities and sections the pickers offer, in the user's language. */
export function useModelAdOptions(countryId: number | null, stateId: number | null) {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const countries = useQuery(countriesQueryOptions());
  const states = useQuery(statesQueryOptions(countryId ?? undefined));
  const cities = useQuery(citiesQueryOptions(stateId ?? undefined));
  const sections = useQuery(sectionsQueryOptions());
  const countryOptions = useMemo(
    () => (countries.data ?? []).map((c) => ({ value: String(c.id), label: c.names[lng] || c.name, iso2: c.iso2, phone: c.phone_code })),
    [countries.data, lng],
  );
  return { lng, countries, states, cities, sections, countryOptions };
}

/**
 * The publicist's screen shows every group at once, so pairs of inputs share a row there; the model's step stacks
 * them (`stack`: in a stack of its own, else inline in the surrounding one).
 */
function Row({ own, stack, children }: { own: boolean; stack?: boolean; children: ReactNode }) {
  if (!own) return <SimpleGrid cols={{ base: 1, sm: 2 }}>{children}</SimpleGrid>;
  return stack ? <Stack gap="md">{children}</Stack> : <>{children}</>;
}

export interface ModelAdSectionProps<V extends ModelAdValues> {
  section: ModelAdSectionKey;
  who: ModelAdWho;
  values: V;
  /** The whole new value set, and the field the user changed (to clear its error); a map pick reports each place field. */
  onChange: (next: V, field: Field) => void;
  error: (field: Field) => string | undefined;
  /** The publicist edits a saved model: changing the contact sends a new consent request. */
  editing?: boolean;
}

/** One group of the inputs: personal details, contact, place, or the ad. */
export function ModelAdSection<V extends ModelAdValues>({ section, who, values, onChange, error, editing }: ModelAdSectionProps<V>) {
  const { t } = useTranslation();
  const { lng, countries, states, cities, sections, countryOptions } = useModelAdOptions(values.country_id, values.state_id);
  const own = who === 'model';
  const label = (f: Field) => t(`${TEXT[who].fields}.${f}`);
  const nothingFound = t(TEXT[who].nothingFound);
  const set = <K extends keyof V & Field>(field: K, value: V[K], extra: Partial<ModelAdValues> = {}) =>
    onChange({ ...values, [field]: value, ...extra }, field);
  const phoneOptions = useMemo(
    () => countryOptions.filter((c) => c.phone).map((c) => ({ value: c.iso2, label: `${c.label} (+${c.phone.replace(/^\+/, '')})` })),
    [countryOptions],
  );
  // A choice on the map fills the three pickers at once.
  const pickLocation = (p: PickedLocation) => {
    const next = { ...values, country_id: p.country_id ?? values.country_id, state_id: p.state_id, city_id: p.city_id };
    for (const f of ['country_id', 'state_id', 'city_id'] as const) onChange(next, f);
  };

  if (section === 'personal') {
    return (
      <Row own={own} stack>
        <TextInput
          label={label('display_name')}
          description={own ? t('modelProfile.hints.display_name') : undefined}
          value={values.display_name}
          onChange={(e) => set('display_name', e.currentTarget.value)}
          error={error('display_name')}
          maxLength={60}
          autoComplete={own ? 'nickname' : undefined}
          required
        />
        <TextInput
          type="date"
          label={label('birth_date')}
          description={t(own ? 'modelProfile.hints.birth_date' : 'publicist.form.birthHint', { age: MIN_AGE })}
          value={values.birth_date}
          max={latestAdultBirthDate()}
          min="1900-01-01"
          onChange={(e) => set('birth_date', e.currentTarget.value)}
          error={error('birth_date')}
          autoComplete={own ? 'bday' : undefined}
          required
        />
      </Row>
    );
  }

  if (section === 'contact') {
    const managed = values as ModelAdValues & Partial<ManagedModelValues>;
    return (
      <Stack gap={own ? 'md' : 'sm'}>
        {own ? null : (
          <>
            <Text size="sm" c="dimmed">
              {t('publicist.form.contactHint')}
              {editing ? ` ${t('publicist.form.contactChangeHint')}` : ''}
            </Text>
            <TextInput
              type="email"
              label={label('contact_email')}
              value={managed.contact_email ?? ''}
              onChange={(e) => onChange({ ...values, contact_email: e.currentTarget.value }, 'contact_email')}
              error={error('contact_email')}
              maxLength={254}
              autoComplete="off"
              required
            />
          </>
        )}
        <Row own={own}>
          <Select
            label={label('phone_country')}
            data={phoneOptions}
            value={values.phone_country}
            onChange={(v) => set('phone_country', v ?? (own ? '' : 'ES'))}
            searchable
            error={error('phone_country')}
            nothingFoundMessage={nothingFound}
            allowDeselect={false}
            required={own}
          />
          <TextInput
            type="tel"
            label={label('phone')}
            description={own ? t('modelProfile.hints.phone') : undefined}
            value={values.phone}
            onChange={(e) => set('phone', e.currentTarget.value)}
            error={error('phone')}
            autoComplete={own ? 'tel-national' : 'off'}
            inputMode="tel"
            required={own}
          />
        </Row>
        <Checkbox label={label('whatsapp')} checked={values.whatsapp} onChange={(e) => set('whatsapp', e.currentTarget.checked)} />
      </Stack>
    );
  }

  if (section === 'location') {
    const pickers = (
      <>
        <Select
          label={label('country_id')}
          data={countryOptions.map(({ value, label: l }) => ({ value, label: l }))}
          value={values.country_id ? String(values.country_id) : null}
          onChange={(v) => set('country_id', v ? Number(v) : null, { state_id: null, city_id: null })}
          searchable
          error={error('country_id')}
          nothingFoundMessage={nothingFound}
          allowDeselect={own ? false : undefined}
          required
        />
        <Select
          label={label('state_id')}
          data={(states.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          value={values.state_id ? String(values.state_id) : null}
          onChange={(v) => set('state_id', v ? Number(v) : null, { city_id: null })}
          disabled={!values.country_id}
          searchable
          error={error('state_id') ?? (own && values.country_id && states.data?.length === 0 ? t('modelProfile.noStates') : undefined)}
          nothingFoundMessage={nothingFound}
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
          nothingFoundMessage={nothingFound}
          required
        />
      </>
    );
    const map = (
      <LocationMap
        country={countries.data?.find((c) => c.id === values.country_id)?.iso2}
        states={values.country_id ? states.data : undefined}
        cities={values.state_id ? cities.data : undefined}
        stateId={values.state_id}
        cityId={values.city_id}
        onPick={pickLocation}
        height={own ? undefined : 240}
      />
    );
    return own ? (
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('modelProfile.hints.location')}
        </Text>
        {pickers}
        {map}
      </Stack>
    ) : (
      <>
        <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
          {pickers}
        </SimpleGrid>
        {map}
      </>
    );
  }

  return (
    <Stack gap={own ? 'md' : 'sm'}>
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
        description={t(own ? 'modelProfile.hints.description' : 'publicist.form.descriptionCount', {
          count: values.description.trim().length,
          max: 3000,
        })}
        value={values.description}
        onChange={(e) => set('description', e.currentTarget.value)}
        error={error('description')}
        autosize
        minRows={own ? 5 : 4}
        maxLength={3000}
        required
      />
    </Stack>
  );
}
