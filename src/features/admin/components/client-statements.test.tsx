import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInSpanish } from '#tests/render-es.tsx';
import type { AdminClient } from '#contract/admin.ts';
import type { Statement } from '#contract/statements.ts';
import { ClientStatements } from './client-statements.tsx';

const wrap = (ui: React.ReactNode) => renderInSpanish(ui, '/es/admin/clients/5');

function statement(over: Partial<Statement>): Statement {
  return {
    id: 1,
    subject_type: 'user',
    subject_id: 5,
    subject_label: 'Cliente Demo',
    decision: 'suspended',
    reason_codes: ['spam'],
    facts: 'Mensajes repetidos.',
    ground: 'spam',
    automated: false,
    automated_detail: null,
    language: 'es',
    appeal_until: '2099-01-01T00:00:00.000Z',
    created_at: '2025-03-04T10:00:00.000Z',
    can_appeal: true,
    appeal: null,
    ...over,
  };
}

function list(data: Statement[], total = data.length, lastPage = 1): AdminClient['statement_list'] {
  return {
    data,
    meta: { current_page: 1, last_page: lastPage, per_page: 20, total, from: data.length ? 1 : null, to: data.length || null },
  };
}

describe('ClientStatements', () => {
  it('lists what was restricted, the measure, every reason, the facts and the appeal state', () => {
    wrap(
      <ClientStatements
        list={list([
          statement({
            id: 2,
            subject_type: 'ad',
            subject_label: 'Anuncio viejo',
            decision: 'rejected',
            reason_codes: ['photo_rules', 'incomplete'],
            facts: 'Las fotos no son de la persona.',
            automated: true,
            can_appeal: false,
            appeal: {
              id: 9,
              status: 'pending',
              text: 'Sí lo son',
              decision_text: null,
              decided_at: null,
              created_at: '2025-03-05T10:00:00Z',
            },
          }),
          statement({ id: 1, can_appeal: false, appeal_until: '2024-01-01T00:00:00.000Z' }),
        ])}
        onPage={() => {}}
      />,
    );
    const section = screen.getByRole('region', { name: 'Declaraciones de motivos' });
    const table = within(section).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Qué se restringió', 'Fecha', 'Medida', 'Motivos', 'Hechos', 'Recurso']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(first!.textContent).toContain('Anuncio «Anuncio viejo»');
    expect(first!.textContent).toContain('Rechazado');
    expect(first!.textContent).toContain('Automatizada');
    expect(first!.textContent).toContain('Fotos que no cumplen las normas');
    expect(first!.textContent).toContain('Datos incompletos o incorrectos');
    expect(first!.textContent).toContain('Las fotos no son de la persona.');
    expect(first!.textContent).toContain('En revisión');
    expect(second!.textContent).toContain('Cuenta «Cliente Demo»');
    expect(second!.textContent).toContain('Bloqueado');
    expect(second!.textContent).toMatch(/Sin recurso; el plazo terminó el/);
    // The phone layout: one card per statement, headed by what was restricted.
    const cards = within(section).getByRole('list', { name: 'Declaraciones de motivos' });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    expect(within(section).getByText('2 resultados')).toBeTruthy();
  });

  it('says so when the client has none', () => {
    wrap(<ClientStatements list={list([])} onPage={() => {}} />);
    expect(screen.getByText('Este cliente no ha recibido ninguna declaración de motivos.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a page past the end offers the first page instead of claiming there are none', () => {
    const onPage = vi.fn();
    const past = { data: [], meta: { current_page: 3, last_page: 1, per_page: 20, total: 2, from: null, to: null } };
    wrap(<ClientStatements list={past} onPage={onPage} />);
    expect(screen.queryByText('Este cliente no ha recibido ninguna declaración de motivos.')).toBeNull();
    expect(screen.getByText('No hay declaraciones en esta página.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Primera página' }));
    expect(onPage).toHaveBeenCalledWith(1);
  });

  it('pages through a long history', () => {
    const onPage = vi.fn();
    wrap(<ClientStatements list={list([statement({})], 21, 2)} onPage={onPage} />);
    expect(screen.getByText('21 resultados')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});
