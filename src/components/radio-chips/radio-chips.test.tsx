import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { RadioChips } from './radio-chips.tsx';
import { rovingTarget, tabStop } from './roving.ts';

const OPTIONS = ['all', 'women', 'men', 'gays', 'trans', 'webcam', 'couples'].map((value) => ({ value, label: value.toUpperCase() }));

function Sections({ chosen }: { chosen: string[] }) {
  const [value, setValue] = useState('all');
  return (
    <MantineProvider>
      <button type="button">before</button>
      <RadioChips
        scroll
        label="Secciones"
        value={value}
        onChange={(v) => {
          chosen.push(v);
          setValue(v);
        }}
        options={OPTIONS}
      />
      <button type="button">after</button>
    </MantineProvider>
  );
}

const radios = () => screen.getAllByRole('radio');
const tabbable = () => radios().filter((r) => r.tabIndex === 0);

describe('rovingTarget', () => {
  it('moves with the arrows, wrapping, and jumps with Home and End', () => {
    expect(rovingTarget('ArrowRight', 0, 3)).toBe(1);
    expect(rovingTarget('ArrowDown', 2, 3)).toBe(0);
    expect(rovingTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(rovingTarget('ArrowUp', 1, 3)).toBe(0);
    expect(rovingTarget('Home', 2, 3)).toBe(0);
    expect(rovingTarget('End', 0, 3)).toBe(2);
    expect(rovingTarget('Tab', 0, 3)).toBeNull();
    expect(rovingTarget('ArrowRight', 0, 0)).toBeNull();
  });
  it('gives the Tab stop to the focused item, else the chosen one, else the first', () => {
    expect(tabStop(3, 1, 5)).toBe(3);
    expect(tabStop(null, 1, 5)).toBe(1);
    expect(tabStop(null, -1, 5)).toBe(0);
  });
});

describe('RadioChips', () => {
  it('is one Tab stop, on the chosen chip', () => {
    render(<Sections chosen={[]} />);
    expect(screen.getByRole('radiogroup', { name: 'Secciones' })).toBeTruthy();
    expect(radios()).toHaveLength(7);
    expect(tabbable()).toHaveLength(1);
    expect(tabbable()[0]).toBe(screen.getByRole('radio', { name: 'ALL' }));
  });

  it('moves the focus with the arrows without choosing; Enter and Space choose', () => {
    const chosen: string[] = [];
    render(<Sections chosen={chosen} />);
    const all = screen.getByRole('radio', { name: 'ALL' });
    act(() => all.focus());
    fireEvent.keyDown(all, { key: 'ArrowRight' });
    const women = screen.getByRole('radio', { name: 'WOMEN' });
    expect(document.activeElement).toBe(women);
    expect(tabbable()).toEqual([women]);
    fireEvent.keyDown(women, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'COUPLES' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(chosen).toEqual([]);

    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(chosen).toEqual(['couples']);
    expect(screen.getByRole('radio', { name: 'COUPLES' })).toHaveProperty('checked', true);

    // Space is the radio's own: the browser checks it (a click in jsdom).
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    fireEvent.click(document.activeElement!);
    expect(chosen).toEqual(['couples', 'all']);
  });

  it('gives the Tab stop back to the chosen chip when the focus leaves the group', () => {
    render(<Sections chosen={[]} />);
    const all = screen.getByRole('radio', { name: 'ALL' });
    act(() => all.focus());
    fireEvent.keyDown(all, { key: 'End' });
    expect(tabbable()).toEqual([screen.getByRole('radio', { name: 'COUPLES' })]);
    act(() => screen.getByRole('button', { name: 'after' }).focus());
    expect(tabbable()).toEqual([all]);
  });
});
