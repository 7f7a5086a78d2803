import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { esMessages, renderInSpanish, type Dict } from '#tests/render-es.tsx';
import type { Status } from '#contract/statuses.ts';
import { AccountActionButton } from './account-action.tsx';
import { DecisionDialog, type DecisionTarget } from './decision-dialog.tsx';

const es = esMessages as Dict & {
  admin: { account: { note: string; reinstateNote: string }; validation: { reasons: string } };
  statements: { grounds: { spam: string } };
};

function Screen({ status }: { status: Status }) {
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  return (
    <>
      <AccountActionButton userId={42} name="Cliente Prueba" status={status} onDecide={setTarget} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AccountActionButton', () => {
  it('suspending an account opens the decision dialog, which asks for reasons and facts before sending', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderInSpanish(<Screen status="active" />);
    fireEvent.click(screen.getByRole('button', { name: 'Bloquear cuenta: Cliente Prueba' }));
    await screen.findByRole('dialog', { name: 'Bloquear cuenta: Cliente Prueba' });
    expect(screen.getByText(es.admin.account.note)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar: Bloquear cuenta' }));
    expect(await screen.findByText(es.admin.validation.reasons)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: es.statements.grounds.spam })).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a suspended account is offered reinstatement, which needs no reasons', async () => {
    renderInSpanish(<Screen status="suspended" />);
    expect(screen.queryByRole('button', { name: 'Bloquear cuenta: Cliente Prueba' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reactivar cuenta: Cliente Prueba' }));
    await screen.findByRole('dialog', { name: 'Reactivar cuenta: Cliente Prueba' });
    expect(screen.getByText(es.admin.account.reinstateNote)).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
