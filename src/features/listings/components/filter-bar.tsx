import { CloseButton, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMapPin, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CityOption } from '#contract/locations.ts';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Language } from '#contract/languages.ts';
import type { Section } from '#contract/sections.ts';
import { RadioChips } from '#src/components/radio-chips/radio-chips.tsx';
import { SaveSearchButton } from '#src/components/save-search-button.tsx';
import { cityQueryOptions, citySearchQueryOptions } from '../api/get-models.ts';
import type { ListingParams, ListingView } from '../hooks/use-listing-params.ts';
import classes from './filter-bar.module.css';
import { ViewSwitch } from './view-switch.tsx';

// Only a saved search's alert link opens the listing at new ads: off the home's first load.
const NewAdsStrip = lazy(async () => ({ default: (await import('./new-ads-strip.tsx')).NewAdsStrip }));

interface Props {
  params: ListingParams;
  sections: Section[] | undefined;
  lng: Language;
  view: ListingView;
  onChange: (patch: Partial<ListingParams>) => void;
  onView: (view: ListingView) => void;
}

export function SearchBox({ value, onSubmit }: { value: string; onSubmit: (v: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, 400);
  const input = useRef<HTMLInputElement>(null);
  // The text typed since the search last changed (submitted, cleared, or set from the URL), waiting for the typing
  // pause: only that is submitted by the pause. Without it, words typed then submitted with Enter came back when the
  // filters were cleared within the pause (the pause's timer ran out between the clear and the box following it).
  const pending = useRef<string | null>(null);
  useEffect(() => {
    setText(value);
    pending.current = null;
  }, [value]);
  // Typed into the server-rendered box before the app took over the page: React keeps the text on screen but its
  // state does not know it, so it is taken up here (and searched for after the usual pause).
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== value) {
      setText(typed);
      pending.current = typed;
    }
    // Once, when the box is first in the app's hands.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (pending.current === null || debounced !== pending.current) return;
    pending.current = null;
    if (debounced.trim() !== value) onSubmit(debounced.trim());
    // Submitting follows the typing pause only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        pending.current = null;
        onSubmit(text.trim());
      }}
      style={{ flex: 1, minWidth: 0 }}
    >
      <TextInput
        ref={input}
        type="search"
        // Submitted before the app runs, the browser's own GET carries the words the app reads from the URL.
        name="search"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          pending.current = e.currentTarget.value;
        }}
        placeholder={t('listings.searchPlaceholder')}
        aria-label={t('listings.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        maxLength={100}
      />
    </form>
  );
}

/**
 * The city type-ahead, with the keyboard and ARIA behaviour of Mantine's Combobox that it replaces (a text box
 * with aria-haspopup="listbox", aria-controls and aria-activedescendant): the list opens on focus once two
 * letters are typed; ArrowDown/ArrowUp move through it (wrapping), Enter picks, Escape closes, a click picks;
 * leaving the box empty clears the city, otherwise the box goes back to the chosen city's name.
 */
function CityPicker({ cityId, onPick }: { cityId: number | undefined; onPick: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const listId = useId();
  const selected = useQuery(cityQueryOptions(cityId));
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, 200);
  const options = useQuery(citySearchQueryOptions(debounced));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setText(selected.data?.name ?? ''), [selected.data]);
  // A new list has nothing selected yet.
  useEffect(() => setActive(-1), [options.data]);

  const list = options.data ?? [];
  const shown = open && debounced.trim().length >= 2;
  const optionId = (i: number) => `${listId}-${i}`;

  const pick = (city: CityOption) => {
    setText(city.name);
    onPick(city.id);
    setOpen(false);
    setActive(-1);
  };
  const select = (i: number) => {
    setActive(i);
    document.getElementById(optionId(i))?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      if (!list.length) return;
      const down = e.key === 'ArrowDown';
      select(active < 0 ? (down ? 0 : list.length - 1) : (active + (down ? 1 : -1) + list.length) % list.length);
    } else if (e.key === 'Enter' && shown && list[active]) {
      e.preventDefault();
      pick(list[active]);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className={classes.city}>
      <TextInput
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          if (!text.trim() && cityId) onPick(undefined);
          else setText(selected.data?.name ?? '');
        }}
        onKeyDown={onKeyDown}
        autoComplete="off"
        aria-haspopup="listbox"
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
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
      />
      {shown ? (
        <div className={classes.dropdown}>
          <div role="listbox" id={listId} aria-label={t('listings.city')} className={classes.options}>
            {list.length ? (
              list.map((c, i) => (
                <div
                  key={c.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={classes.option}
                  // Keep the focus in the box: a blur would close the list before the click lands.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(c)}
                >
                  {c.name} <span style={{ opacity: 0.7 }}>· {c.state}</span>
                </div>
              ))
            ) : (
              <div className={classes.empty}>{options.isFetching ? t('common.loading') : t('listings.noCity')}</div>
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}

export function FilterBar({ params, sections, lng, view, onChange, onView }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <SearchBox value={params.search} onSubmit={(search) => onChange({ search })} />
        <CityPicker cityId={params.city} onPick={(city) => onChange({ city })} />
        <Group className={classes.save} justify="flex-end">
          <SaveSearchButton
            query={{ search: params.search, city: params.city, section: params.section }}
            sectionName={sections?.find((s) => s.slug === params.section)?.names[lng]}
          />
        </Group>
      </Group>
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
        <div className={classes.chips}>
          <RadioChips
            scroll
            label={t('home.sections')}
            value={params.section ?? 'all'}
            onChange={(v) => onChange({ section: v === 'all' ? undefined : v })}
            options={[
              { value: 'all' as const, label: t('listings.allSections') },
              ...(sections ?? []).map((s) => ({
                value: s.slug,
                label: s.names[lng],
                color: s.color,
                inputProps: { 'data-section': s.slug },
              })),
            ]}
          />
        </div>
        <ViewSwitch value={view} onChange={onView} />
      </Group>
      {params.newAds?.length ? (
        <Suspense fallback={null}>
          <NewAdsStrip
            ids={params.newAds}
            lng={lng}
            view={view === 'list' ? 'list' : 'grid'}
            onDismiss={() => onChange({ newAds: undefined })}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
