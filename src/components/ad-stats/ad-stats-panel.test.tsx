import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdStats, AdStatsList } from '#contract/ad-stats.ts';
import { toLocaleTag } from '#contract/languages.ts';
import { renderInSpanish } from '#tests/render-es.tsx';
import { AdStatsPanel, weekLabel } from './ad-stats-panel.tsx';

const zero = { impressions: 0, opens: 0, favourites: 0, calls: 0, messages: 0 };
const WEEKS = ['2026-11-23', '2026-11-16', '2026-11-09'];

function ad(id: number, title: string, now: Partial<typeof zero>, before: Partial<typeof zero> = {}): AdStats {
  const weeks = WEEKS.map((week, i) => ({ week, ...zero, ...(i === 0 ? now : i === 1 ? before : {}) }));
  const totals = { ...zero };
  for (const w of weeks) for (const k of Object.keys(zero) as (keyof typeof zero)[]) totals[k] += w[k];
  return { ad_id: id, title, model_name: title.split(',')[0]!, favourites_total: 4, weeks, totals };
}

function answer(list: AdStatsList, status = 200) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(list), { status, headers: { 'content-type': 'application/json' } }));
}

afterEach(() => vi.restoreAllMocks());

describe('AdStatsPanel', () => {
  it('a card per ad: this week beside the last, metric by metric, and the standing favourites', async () => {
    const fetchSpy = answer({
      data: [
        ad(1, 'Lucía, modelo en Oviedo', { impressions: 1234, opens: 56, calls: 3 }, { impressions: 900, messages: 2 }),
        ad(2, 'Ana, en Gijón', {}),
      ],
    });
    renderInSpanish(<AdStatsPanel />);
    expect(screen.getByRole('heading', { level: 2, name: 'Números de tus anuncios' })).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Lucía, modelo en Oviedo' });
    expect(fetchSpy.mock.calls[0]![0]).toBe('/api/ad-stats?weeks=8');
    const table = within(card).getAllByRole('table')[0]!;
    const row = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!;
    expect(
      within(row('En resultados'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([new Intl.NumberFormat(toLocaleTag('es')).format(1234), '900']);
    expect(
      within(row('Llamadas'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '0']);
    expect(
      within(row('Mensajes'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '2']);
    expect(within(card).getByText('Guardado ahora como favorito por 4 personas.')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('the weekly table with totals opens on demand, behind a disclosure button', async () => {
    answer({ data: [ad(1, 'Lucía, modelo en Oviedo', { impressions: 5, opens: 2 }, { impressions: 3 })] });
    renderInSpanish(<AdStatsPanel />);
    const card = await screen.findByRole('article', { name: 'Lucía, modelo en Oviedo' });
    const show = within(card).getByRole('button', { name: 'Ver las últimas 3 semanas' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    expect(within(card).queryByRole('region')).toBeNull();
    fireEvent.click(show);
    const hide = within(card).getByRole('button', { name: 'Ocultar las semanas' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    const region = within(card).getByRole('region', { name: 'Por semana (últimas 3 semanas)' });
    expect(hide.getAttribute('aria-controls')).toBe(region.id);
    expect(region.getAttribute('tabindex')).toBe('0');
    const rows = within(region).getAllByRole('row');
    // Header, three weeks newest first, totals.
    expect(rows).toHaveLength(5);
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe(weekLabel('2026-11-23', 'es'));
    expect(within(rows[4]!).getByRole('rowheader').textContent).toBe('Total');
    expect(
      within(rows[4]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['8', '2', '0', '0', '0']);
  });

  it('says so when there is no ad yet, and when the numbers cannot be loaded', async () => {
    answer({ data: [] });
    const { unmount } = renderInSpanish(<AdStatsPanel />);
    expect(await screen.findByText('Aún no hay anuncios: cuando publiques uno, aquí verás sus números.')).toBeTruthy();
    unmount();
    vi.restoreAllMocks();
    answer({ data: [] }, 500);
    renderInSpanish(<AdStatsPanel />);
    expect(await screen.findByText('No se pudieron cargar los números. Vuelve a intentarlo más tarde.')).toBeTruthy();
  });

  it('labels a week by its Monday in the page language', () => {
    expect(weekLabel('2026-11-23', 'es')).toMatch(/23 nov/);
    expect(weekLabel('2026-11-23', 'en')).toMatch(/Nov 23|23 Nov/);
  });
});
