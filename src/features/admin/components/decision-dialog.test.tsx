import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { esMessages, renderInSpanish, type Dict } from '#tests/render-es.tsx';
import { actionsFrom, DecisionButtons, DecisionDialog } from './decision-dialog.tsx';

const es = esMessages as Dict & {
  admin: { validation: { reasons: string; text: string } };
  statements: { grounds: { minor: string } };
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('actionsFrom', () => {
  it('offers what makes sense from each status', () => {
    expect(actionsFrom('ad', 'pending')).toEqual(['approve', 'reject']);
    expect(actionsFrom('ad', 'active')).toEqual(['suspend', 'pause']);
    expect(actionsFrom('publicist_profile', 'suspended')).toEqual(['reinstate']);
    expect(actionsFrom('verification', 'active')).toEqual([]);
    expect(actionsFrom('verification', 'pending')).toEqual(['approve', 'reject']);
  });
});

describe('DecisionButtons', () => {
  it('names each button "{action}: {item}"', () => {
    const onDecide = vi.fn();
    renderInSpanish(
      <DecisionButtons subjectType="ad" subjectId={7} name="Anuncio de prueba" actions={['approve', 'reject']} onDecide={onDecide} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rechazar: Anuncio de prueba' }));
    expect(onDecide).toHaveBeenCalledWith({ subjectType: 'ad', subjectId: 7, action: 'reject', name: 'Anuncio de prueba' });
  });
});

describe('DecisionDialog', () => {
  it('a restriction needs reasons and facts before anything is sent', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderInSpanish(
      <DecisionDialog target={{ subjectType: 'ad', subjectId: 7, action: 'reject', name: 'Anuncio de prueba' }} onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Rechazar: Anuncio de prueba' });
    expect(dialog).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar: Rechazar' }));
    expect(await screen.findByText(es.admin.validation.reasons)).toBeTruthy();
    expect(screen.getByText(es.admin.validation.text)).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
    // Every reason code is offered, translated.
    expect(screen.getAllByRole('checkbox')).toHaveLength(9);
    expect(screen.getByRole('checkbox', { name: es.statements.grounds.minor })).toBeTruthy();
  });

  it('approving needs no reasons (no checkboxes)', async () => {
    renderInSpanish(
      <DecisionDialog target={{ subjectType: 'ad', subjectId: 7, action: 'approve', name: 'Anuncio de prueba' }} onClose={() => {}} />,
    );
    await screen.findByRole('dialog', { name: 'Aprobar: Anuncio de prueba' });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
