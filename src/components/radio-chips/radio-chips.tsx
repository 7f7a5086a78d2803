/**
 * One choice out of a few, as a row of chips (the home's sections, the staff inbox's filters): a radio group that is
 * one Tab stop. The arrow keys (and Home/End) move the focus, Space or Enter chooses. The focus moves without
 * choosing, unlike native radios: each choice here loads a new list, and stepping through six sections must not
 * start six loads. With `scroll`, the chips stay on one line that scrolls sideways, with a fade and arrow buttons at
 * an edge with more chips beyond it.
 */
import { Chip, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import classes from './radio-chips.module.css';
import { rovingTarget, tabStop } from './roving.ts';

export interface RadioChipOption<T extends string = string> {
  value: T;
  label: ReactNode;
  color?: string;
  /** Extra attributes for the chip's radio input (e.g. data-section). */
  inputProps?: Record<`data-${string}`, string>;
}

interface Props<T extends string> {
  value: T;
  onChange: (value: T) => void;
  options: readonly RadioChipOption<T>[];
  /** The group's accessible name. */
  label: string;
  /** One scrolling line with edge hints instead of wrapping lines. */
  scroll?: boolean;
}

export function RadioChips<T extends string>({ value, onChange, options, label, scroll = false }: Props<T>) {
  const groupRef = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const selected = options.findIndex((o) => o.value === value);
  const stop = tabStop(focused, selected, options.length);

  const inputs = () => Array.from(groupRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = inputs().indexOf(event.target as HTMLInputElement);
    if (current < 0) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      const option = options[current];
      if (option && option.value !== value) onChange(option.value);
      return;
    }
    const target = rovingTarget(event.key, current, options.length);
    if (target === null) return;
    // Also keeps the browser from checking a radio on an arrow key.
    event.preventDefault();
    const input = inputs()[target];
    if (!input) return;
    setFocused(target);
    input.focus({ preventScroll: true });
    // The input is hidden inside its chip: bring the chip into view.
    input.parentElement?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const i = inputs().indexOf(event.target as HTMLInputElement);
    if (i >= 0) setFocused(i);
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // Leaving the group: the next Tab into it lands on the chosen chip again.
    if (!groupRef.current?.contains(event.relatedTarget)) setFocused(null);
  };

  const group = (
    <Chip.Group multiple={false} value={value} onChange={(v) => onChange(v)}>
      <Group
        ref={groupRef}
        gap={6}
        wrap={scroll ? 'nowrap' : 'wrap'}
        role="radiogroup"
        aria-label={label}
        py={2}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={onBlur}
      >
        {options.map((o, i) => (
          <Chip key={o.value} value={o.value} size="sm" variant="outline" color={o.color} tabIndex={i === stop ? 0 : -1} {...o.inputProps}>
            {o.label}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
  return scroll ? <ScrollRow>{group}</ScrollRow> : group;
}

/** How far an arrow button scrolls: most of the visible row, so the next chips come into view. */
const PAGE = 0.8;

function ScrollRow({ children }: { children: ReactNode }) {
  const rowRef = useRef<HTMLDivElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  const measure = useCallback(() => {
    const el = scrollerRef.current;
    if (!el) return;
    // A pixel of rounding at either end is not "more".
    const start = el.scrollLeft > 1;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
  }, []);

  useEffect(() => {
    measure();
    const el = scrollerRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);

  const by = (direction: 1 | -1) => {
    const el = scrollerRef.current;
    if (el) el.scrollBy({ left: direction * el.clientWidth * PAGE, behavior: 'smooth' });
  };

  return (
    <div ref={rowRef} className={classes.row} data-more-start={more.start || undefined} data-more-end={more.end || undefined}>
      <div ref={scrollerRef} className={classes.scroller} onScroll={measure} data-testid="chip-scroller">
        {children}
      </div>
      {/* Pointer-only: the keyboard moves through the chips with the arrow keys, which bring each into view. */}
      <span className={`${classes.arrow} ${classes.start}`} aria-hidden onClick={() => by(-1)} data-testid="chip-scroll-start">
        <IconChevronLeft size={16} />
      </span>
      <span className={`${classes.arrow} ${classes.end}`} aria-hidden onClick={() => by(1)} data-testid="chip-scroll-end">
        <IconChevronRight size={16} />
      </span>
    </div>
  );
}
