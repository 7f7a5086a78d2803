import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Box } from './box-geometry.ts';
import { PixelationEditor } from './pixelation-editor.tsx';
import es from '../../../locales/es.json';

const i18n = createI18nInstance({ lng: 'es', resources: { es: es } });

const photo = { preview: { width: 500, height: 400 } as HTMLCanvasElement, width: 1000, height: 800, previewScale: 0.5 };

function Harness({ initial, onChange }: { initial: Box[]; onChange?: (areas: Box[]) => void }) {
  const [areas, setAreas] = useState(initial);
  return (
    <PixelationEditor
      photo={photo}
      areas={areas}
      name="playa.jpg"
      onChange={(next) => {
        setAreas(next);
        onChange?.(next);
      }}
    />
  );
}

function setup(initial: Box[]) {
  const changes: Box[][] = [];
  render(
    <I18nProvider i18n={i18n}>
      <MantineProvider>
        <Harness initial={initial} onChange={(a) => changes.push(a)} />
      </MantineProvider>
    </I18nProvider>,
  );
  return changes;
}

beforeAll(() => {
  // jsdom has no 2D canvas; the editor then shows the areas without drawing the preview.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

const areas = () => screen.queryAllByRole('button', { name: /^Zona \d+ de \d+/ });

describe('PixelationEditor', () => {
  it('shows each area as a focusable, labelled control with instructions', () => {
    setup([
      { x: 100, y: 80, w: 200, h: 160 },
      { x: 500, y: 400, w: 100, h: 100 },
    ]);
    expect(areas().map((a) => a.getAttribute('aria-label'))).toEqual([
      'Zona 1 de 2: 10 % desde la izquierda, 10 % desde arriba, 20 % de ancho, 20 % de alto',
      'Zona 2 de 2: 50 % desde la izquierda, 50 % desde arriba, 10 % de ancho, 13 % de alto',
    ]);
    const first = areas()[0]!;
    expect(first.tabIndex).toBe(0);
    expect(first.getAttribute('aria-roledescription')).toBe('zona pixelada');
    expect(document.getElementById(first.getAttribute('aria-describedby')!)?.textContent).toMatch(/Flechas: mover/);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('playa.jpg, como se enviará, con 2 zonas pixeladas');
  });

  it('moves an area with the arrows, resizes it with Shift, and announces it', () => {
    const changes = setup([{ x: 100, y: 80, w: 200, h: 160 }]);
    const area = areas()[0]!;
    fireEvent.keyDown(area, { key: 'ArrowRight' });
    expect(changes.at(-1)).toEqual([{ x: 116, y: 80, w: 200, h: 160 }]);
    fireEvent.keyDown(area, { key: 'ArrowDown', shiftKey: true });
    expect(changes.at(-1)).toEqual([{ x: 116, y: 80, w: 200, h: 176 }]);
    expect(screen.getByRole('status').textContent).toBe('Zona 1: 20 % de ancho, 22 % de alto.');
  });

  it('removes the focused area with Delete and moves the focus on', () => {
    setup([
      { x: 100, y: 80, w: 200, h: 160 },
      { x: 500, y: 400, w: 100, h: 100 },
    ]);
    act(() => areas()[0]!.focus());
    fireEvent.keyDown(areas()[0]!, { key: 'Delete' });
    expect(areas()).toHaveLength(1);
    expect(document.activeElement).toBe(areas()[0]);
    expect(screen.getByRole('status').textContent).toBe('Zona 1 quitada.');
    fireEvent.keyDown(areas()[0]!, { key: 'Backspace' });
    expect(areas()).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Añadir zona' }));
  });

  it('adds an area in the middle with the button and focuses it; the × button removes one', () => {
    const changes = setup([]);
    fireEvent.click(screen.getByRole('button', { name: 'Añadir zona' }));
    expect(changes.at(-1)).toEqual([{ x: 420, y: 320, w: 160, h: 160 }]);
    expect(document.activeElement).toBe(areas()[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Quitar la zona 1' }));
    expect(areas()).toHaveLength(0);
  });
});
