import { describe, expect, it, vi } from 'vitest';
import { ApiError, OfflineError, ValidationError } from './api-client.ts';
import {
  DEFAULT_PLACEMENT,
  handleAnswer,
  handleRejection,
  NOTIFICATION_DURATION_MS,
  NOTIFICATION_LIMIT,
  rejectionValue,
  runAction,
  type Presenter,
} from './response-handler.ts';

const ES: Record<string, string> = {
  'common.somethingHappened': '¡Ha ocurrido algo!',
  'common.operationError': 'Error en la operación',
  'common.unknownError': 'Error desconocido',
  'common.errorTitle': 'Error!',
  'common.close': 'Cerrar',
  'errors.offline': 'Sin conexión. Inténtalo cuando vuelvas a tener red.',
  'errors.forbidden': 'No tienes permiso para hacer esto.',
};

function presenter() {
  return {
    t: (k: string) => ES[k] ?? k,
    notify: vi.fn<Presenter['notify']>(),
    openModal: vi.fn<Presenter['openModal']>(),
    navigate: vi.fn<Presenter['navigate']>(),
  };
}

describe('handleAnswer (SPEC §7–8)', () => {
  it('shows a notification answer as a notification, top right by default', () => {
    const ui = presenter();
    handleAnswer({ status: 200, data: { channel: 'notification', type: 'success', message: 'Anuncio eliminado!' } }, ui);
    expect(ui.notify).toHaveBeenCalledWith({ type: 'success', message: 'Anuncio eliminado!', placement: 'top-right' });
    expect(ui.openModal).not.toHaveBeenCalled();
  });

  it('keeps the placement and description the server chose', () => {
    const ui = presenter();
    handleAnswer(
      { status: 201, data: { channel: 'notification', type: 'info', message: 'M', description: 'D', placement: 'bottom-left' } },
      ui,
    );
    expect(ui.notify).toHaveBeenCalledWith({ type: 'info', message: 'M', description: 'D', placement: 'bottom-left' });
  });

  it('shows a modal answer as a modal whose button defaults to "Cerrar"', () => {
    const ui = presenter();
    handleAnswer(
      {
        status: 200,
        data: {
          channel: 'modal',
          type: 'success',
          message: '¡Correo verificado!',
          description: 'Tu correo electrónico ha sido verificado.',
        },
      },
      ui,
    );
    expect(ui.openModal).toHaveBeenCalledWith({
      type: 'success',
      title: '¡Correo verificado!',
      content: 'Tu correo electrónico ha sido verificado.',
      okText: 'Cerrar',
    });
  });

  it('uses the okText of the answer when there is one', () => {
    const ui = presenter();
    handleAnswer({ status: 200, data: { channel: 'modal', type: 'success', message: 'T', okText: 'Crear perfil' } }, ui);
    expect(ui.openModal).toHaveBeenCalledWith(expect.objectContaining({ okText: 'Crear perfil' }));
  });

  it('turns any status other than 200/201 into "¡Ha ocurrido algo!" with the server error', () => {
    const ui = presenter();
    handleAnswer(
      { status: 403, data: { channel: 'notification', type: 'error', message: 'No tienes permiso para hacer esto.', error: 'forbidden' } },
      ui,
    );
    expect(ui.notify).toHaveBeenCalledWith({
      type: 'error',
      message: '¡Ha ocurrido algo!',
      description: 'No tienes permiso para hacer esto.',
      placement: DEFAULT_PLACEMENT,
    });
  });

  it('treats 204 like any non-200/201 status', () => {
    const ui = presenter();
    handleAnswer({ status: 204, data: undefined }, ui);
    expect(ui.notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: '¡Ha ocurrido algo!', description: 'Error en la operación' }),
    );
  });

  it('translates a bare error code, and falls back to "Error en la operación" when there is nothing', () => {
    const ui = presenter();
    handleAnswer({ status: 500, data: { error: 'forbidden' } }, ui);
    expect(ui.notify).toHaveBeenLastCalledWith(expect.objectContaining({ description: 'No tienes permiso para hacer esto.' }));
    handleAnswer({ status: 500, data: null }, ui);
    expect(ui.notify).toHaveBeenLastCalledWith(expect.objectContaining({ description: 'Error en la operación' }));
  });

  it('navigates to the route of a successful answer, or the one the caller gives', () => {
    const ui = presenter();
    handleAnswer({ status: 201, data: { channel: 'notification', type: 'success', message: 'ok', redirect: '/login' } }, ui);
    expect(ui.navigate).toHaveBeenCalledWith('/login');
    handleAnswer({ status: 200, data: { channel: 'notification', type: 'success', message: 'ok' } }, ui, { redirectTo: '/dashboard' });
    expect(ui.navigate).toHaveBeenLastCalledWith('/dashboard');
  });

  it('never navigates after a failure', () => {
    const ui = presenter();
    handleAnswer({ status: 422, data: { channel: 'notification', type: 'error', message: 'x', redirect: '/login' } }, ui, {
      redirectTo: '/x',
    });
    expect(ui.navigate).not.toHaveBeenCalled();
  });
});

describe('request failures', () => {
  it('reject with the server response data when there is some', () => {
    const data = { channel: 'notification' as const, type: 'error' as const, message: 'Revisa', error: 'validation_failed' };
    expect(rejectionValue(new ValidationError(422, data), (k) => ES[k] ?? k)).toBe(data);
  });
  it('reject with "Error desconocido" when there is no response data', () => {
    expect(rejectionValue(new ApiError(502, undefined), (k) => ES[k] ?? k)).toBe('Error desconocido');
    expect(rejectionValue(new Error('boom'), (k) => ES[k] ?? k)).toBe('Error desconocido');
  });
  it('say the device is offline when the request never left it', () => {
    expect(rejectionValue(new OfflineError(), (k) => ES[k] ?? k)).toBe(ES['errors.offline']);
  });
});

describe('handleRejection', () => {
  it('opens the "Error!" modal with the translated message', () => {
    const ui = presenter();
    handleRejection(
      new ApiError(403, { channel: 'notification', type: 'error', message: 'No tienes permiso para hacer esto.', error: 'forbidden' }),
      ui,
    );
    expect(ui.openModal).toHaveBeenCalledWith({
      type: 'error',
      title: 'Error!',
      content: 'No tienes permiso para hacer esto.',
      okText: 'Cerrar',
    });
  });
  it('says "Error desconocido" for an error without data', () => {
    const ui = presenter();
    handleRejection(new TypeError('x'), ui);
    expect(ui.openModal).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error!', content: 'Error desconocido' }));
  });
});

describe('runAction', () => {
  it('handles the answer of a successful action and returns its data', async () => {
    const ui = presenter();
    const data = { channel: 'notification' as const, type: 'success' as const, message: 'Foto eliminada!' };
    await expect(runAction(() => Promise.resolve({ status: 200, data }), ui)).resolves.toBe(data);
    expect(ui.notify).toHaveBeenCalledWith(expect.objectContaining({ message: 'Foto eliminada!' }));
  });
  it('shows an HTTP failure as "¡Ha ocurrido algo!"', async () => {
    const ui = presenter();
    await runAction(
      () => Promise.reject(new ApiError(500, { channel: 'notification', type: 'error', message: 'Error en el servidor.' })),
      ui,
    );
    expect(ui.notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: '¡Ha ocurrido algo!', description: 'Error en el servidor.' }),
    );
  });
  it('opens the error modal when the action is rejected without an HTTP answer', async () => {
    const ui = presenter();
    await runAction(() => Promise.reject(new OfflineError()), ui);
    expect(ui.openModal).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error!' }));
  });
});

describe('notification constants (SPEC §9)', () => {
  it('one at a time, 4.5 s, top right', () => {
    expect(NOTIFICATION_LIMIT).toBe(1);
    expect(NOTIFICATION_DURATION_MS).toBe(4500);
    expect(DEFAULT_PLACEMENT).toBe('top-right');
  });
});
