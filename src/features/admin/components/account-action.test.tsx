import fs from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Status } from '#contract/statuses.ts';
import { AccountActionButton } from './account-action.tsx';
import { DecisionDialog, type DecisionTarget } from './decision-dialog.tsx';

type Dict = { [k: string]: string | Dict };
const es = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/es.json'), 'utf8')) as Dict & {
  admin: { account: { note: string; reinstateNote: string }; validation: { reasons: string } };
  statements: { grounds: { spam: string } };
};

if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });
}

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } }, initAsync: false });

function Screen({ status }: { status: Status }) {
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  return (
    <>
      <AccountActionButton userId={42} name="Cliente Prueba" status={status} onDecide={setTarget} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}

function wrap(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter>{ui}</MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AccountActionButton', () => {
  it('suspending an account opens the decision dialog, which asks for reasons and facts before sending', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    wrap(<Screen status="active" />);
    fireEvent.click(screen.getByRole('button', { name: 'Suspender cuenta: Cliente Prueba' }));
    await screen.findByRole('dialog', { name: 'Suspender cuenta: Cliente Prueba' });
    expect(screen.getByText(es.admin.account.note)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar: Suspender cuenta' }));
    expect(await screen.findByText(es.admin.validation.reasons)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: es.statements.grounds.spam })).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a suspended account is offered reinstatement, which needs no reasons', async () => {
    wrap(<Screen status="suspended" />);
    expect(screen.queryByRole('button', { name: 'Suspender cuenta: Cliente Prueba' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reactivar cuenta: Cliente Prueba' }));
    await screen.findByRole('dialog', { name: 'Reactivar cuenta: Cliente Prueba' });
    expect(screen.getByText(es.admin.account.reinstateNote)).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
