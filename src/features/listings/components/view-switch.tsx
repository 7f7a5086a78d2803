/**
 * Grid, list or map: a radio group of three icons (native radios, so arrow keys move the choice as in any radio
 * group), looking and behaving like the Mantine SegmentedControl it replaces. SegmentedControl measures its
 * options to place the indicator, which costs about 3 KB gzipped of the home page for a three-option switch.
 */
import { VisuallyHidden } from '@mantine/core';
import { IconLayoutGrid, IconList, IconMap } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { ListingView } from '../hooks/use-listing-params.ts';
import classes from './view-switch.module.css';

const OPTIONS = [
  { value: 'grid', Icon: IconLayoutGrid, label: 'listings.viewGrid' },
  { value: 'list', Icon: IconList, label: 'listings.viewList' },
  { value: 'map', Icon: IconMap, label: 'listings.viewMap' },
] as const;

export function ViewSwitch({ value, onChange }: { value: ListingView; onChange: (view: ListingView) => void }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <div role="radiogroup" aria-label={t('listings.viewLabel')} className={classes.root}>
      <span className={classes.indicator} data-index={OPTIONS.findIndex((o) => o.value === value)} aria-hidden />
      {OPTIONS.map(({ value: option, Icon, label }) => {
        const active = option === value;
        return (
          <div key={option} className={classes.control}>
            <input
              className={classes.input}
              type="radio"
              id={`${name}-${option}`}
              name={name}
              value={option}
              checked={active}
              onChange={() => onChange(option)}
            />
            <label className={classes.label} htmlFor={`${name}-${option}`} data-active={active || undefined}>
              <span className={classes.innerLabel}>
                <Icon size={16} aria-hidden />
                <VisuallyHidden>{t(label)}</VisuallyHidden>
              </span>
            </label>
          </div>
        );
      })}
    </div>
  );
}
