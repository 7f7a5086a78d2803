import fs from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actionsFrom, DecisionButtons, DecisionDialog } from './decision-dialog.tsx';

type Dict = { [k: string]: string | Dict };
const es = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/es.json'), 'utf8')) as Dict & {
  admin: { validation: { reasons: string; text: string } };
  statements: { grounds: { minor: string } };
};

// Mantine's autosize textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });
}

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } }, initAsync: false });

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
    wrap(<DecisionButtons subjectType="ad" subjectId={7} name="Anuncio de prueba" actions={['approve', 'reject']} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rechazar: Anuncio de prueba' }));
    expect(onDecide).toHaveBeenCalledWith({ subjectType: 'ad', subjectId: 7, action: 'reject', name: 'Anuncio de prueba' });
  });
});

describe('DecisionDialog', () => {
  it('a restriction needs reasons and facts before anything is sent', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    wrap(<DecisionDialog target={{ subjectType: 'ad', subjectId: 7, action: 'reject', name: 'Anuncio de prueba' }} onClose={() => {}} />);
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
    wrap(<DecisionDialog target={{ subjectType: 'ad', subjectId: 7, action: 'approve', name: 'Anuncio de prueba' }} onClose={() => {}} />);
    await screen.findByRole('dialog', { name: 'Aprobar: Anuncio de prueba' });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
