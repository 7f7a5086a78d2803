import {
  Chip,
  CloseButton,
  Combobox,
  Group,
  ScrollArea,
  SegmentedControl,
  Stack,
  TextInput,
  useCombobox,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconMapPin, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '#contract/languages.ts';
import type { Section } from '#contract/sections.ts';
import { cityQueryOptions, citySearchQueryOptions } from '../api/get-models.ts';
import type { ListingParams, ListingView } from '../hooks/use-listing-params.ts';

interface Props {
  params: ListingParams;
  sections: Section[] | undefined;
  lng: Language;
  view: ListingView;
  onChange: (patch: Partial<ListingParams>) => void;
  onView: (view: ListingView) => void;
}

function SearchBox({ value, onSubmit }: { value: string; onSubmit: (v: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (debounced.trim() !== value) onSubmit(debounced.trim());
    // Submitting follows the typing pause only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(text.trim());
      }}
      style={{ flex: 1, minWidth: 0 }}
    >
      <TextInput
        type="search"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder={t('listings.searchPlaceholder')}
        aria-label={t('listings.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        maxLength={100}
      />
    </form>
  );
}

function CityPicker({ cityId, onPick }: { cityId: number | undefined; onPick: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const selected = useQuery(cityQueryOptions(cityId));
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, 200);
  const options = useQuery(citySearchQueryOptions(debounced));
  useEffect(() => setText(selected.data?.name ?? ''), [selected.data]);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const city = options.data?.find((c) => String(c.id) === value);
        if (city) {
          setText(city.name);
          onPick(city.id);
        }
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            if (!text.trim() && cityId) onPick(undefined);
            else setText(selected.data?.name ?? '');
          }}
          placeholder={t('listings.cityPlaceholder')}
          aria-label={t('listings.city')}
          leftSection={<IconMapPin size={16} aria-hidden />}
          rightSection={
            cityId ? (
              <CloseButton
                size="sm"
                aria-label={t('listings.clearCity')}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setText('');
                  onPick(undefined);
                }}
              />
            ) : null
          }
          w={{ base: '100%', sm: 260 }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={debounced.trim().length < 2}>
        <Combobox.Options>
          <ScrollArea.Autosize mah={260} type="scroll">
            {options.data?.length ? (
              options.data.map((c) => (
                <Combobox.Option value={String(c.id)} key={c.id}>
                  {c.name} <span style={{ opacity: 0.7 }}>· {c.state}</span>
                </Combobox.Option>
              ))
            ) : (
              <Combobox.Empty>{options.isFetching ? t('common.loading') : t('listings.noCity')}</Combobox.Empty>
            )}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

export function FilterBar({ params, sections, lng, view, onChange, onView }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <SearchBox value={params.search} onSubmit={(search) => onChange({ search })} />
        <CityPicker cityId={params.city} onPick={(city) => onChange({ city })} />
      </Group>
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
        <ScrollArea type="never" style={{ flex: 1 }}>
          <Chip.Group multiple={false} value={params.section ?? 'all'} onChange={(v) => onChange({ section: v === 'all' ? undefined : v })}>
            <Group gap={6} wrap="nowrap" role="radiogroup" aria-label={t('home.sections')} py={2}>
              <Chip value="all" size="sm" variant="outline">
                {t('listings.allSections')}
              </Chip>
              {sections?.map((s) => (
                <Chip key={s.slug} value={s.slug} size="sm" variant="outline" color={s.color} data-section={s.slug}>
                  {s.names[lng]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </ScrollArea>
        <SegmentedControl
          size="xs"
          value={view}
          onChange={(v) => onView(v)}
          aria-label={t('listings.viewLabel')}
          data={[
            {
              value: 'grid',
              label: (
                <>
                  <IconLayoutGrid size={16} aria-hidden />
                  <VisuallyHidden>{t('listings.viewGrid')}</VisuallyHidden>
                </>
              ),
            },
            {
              value: 'list',
              label: (
                <>
                  <IconList size={16} aria-hidden />
                  <VisuallyHidden>{t('listings.viewList')}</VisuallyHidden>
                </>
              ),
            },
          ]}
        />
      </Group>
    </Stack>
  );
}
