/**
 * The generic answer handling of SPEC §7–8, kept free of React so each rule is unit-tested on its own.
 * Screens call `handleAnswer` with what the server said and `handleRejection` when an action fails; the
 * `Presenter` (notifications, modals, navigation, translations) is supplied by the app shell.
 */
import type { Answer } from '#contract/answers.ts';
import { ApiError, OfflineError, type ApiResponse } from './api-client.ts';

export type Placement = NonNullable<Answer['placement']>;
export type NoticeType = Answer['type'];

export interface Notice {
  type: NoticeType;
  message: string;
  description?: string;
  placement: Placement;
}
export interface ModalSpec {
  type: NoticeType;
  title: string;
  content?: string;
  okText: string;
}
export interface Presenter {
  t: (key: string) => string;
  notify: (notice: Notice) => void;
  openModal: (modal: ModalSpec) => void;
  navigate: (to: string) => void;
}

/** SPEC §9: notifications appear top right by default. */
export const DEFAULT_PLACEMENT: Placement = 'top-right';
/** SPEC §9: one notification at a time, for 4.5 seconds. */
export const NOTIFICATION_DURATION_MS = 4500;
export const NOTIFICATION_LIMIT = 1;

const OK_STATUSES = new Set([200, 201]);

function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && 'channel' in value && 'message' in value;
}

/** The server's error text: its translated message, else the translation of its error code, else undefined. */
function serverError(data: unknown, t: Presenter['t']): string | undefined {
  if (typeof data === 'string' && data) return data;
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Partial<Answer>;
  if (d.message) return d.message;
  if (d.error) {
    const key = `errors.${d.error}`;
    const translated = t(key);
    return translated === key ? d.error : translated;
  }
  return undefined;
}

/**
 * Shows a server answer. A status other than 200/201 becomes the notification "¡Ha ocurrido algo!" with the
 * server's error or "Error en la operación". Otherwise the answer's channel decides: a notification, or a
 * modal whose button reads okText (default "Cerrar"). A success with `redirect` navigates there.
 */
export function handleAnswer(response: ApiResponse<unknown>, ui: Presenter, opts: { redirectTo?: string } = {}): void {
  const { status, data } = response;
  if (!OK_STATUSES.has(status)) {
    ui.notify({
      type: 'error',
      message: ui.t('common.somethingHappened'),
      description: serverError(data, ui.t) ?? ui.t('common.operationError'),
      placement: DEFAULT_PLACEMENT,
    });
    return;
  }
  if (isAnswer(data)) {
    if (data.channel === 'modal') {
      ui.openModal({
        type: data.type,
        title: data.message,
        ...(data.description ? { content: data.description } : {}),
        okText: data.okText ?? ui.t('common.close'),
      });
    } else {
      ui.notify({
        type: data.type,
        message: data.message,
        ...(data.description ? { description: data.description } : {}),
        placement: data.placement ?? DEFAULT_PLACEMENT,
      });
    }
  }
  const target = opts.redirectTo ?? (isAnswer(data) ? data.redirect : undefined);
  if (target) ui.navigate(target);
}

/**
 * What a failed request rejects with (SPEC §8): the server's response data when there is some, otherwise
 * the text "Error desconocido".
 */
export function rejectionValue(err: unknown, t: Presenter['t']): Answer | string {
  if (err instanceof ApiError && err.data) return err.data;
  if (err instanceof OfflineError) return t('errors.offline');
  return t('common.unknownError');
}

/** A rejected action opens the "Error!" modal with a translated message. */
export function handleRejection(err: unknown, ui: Presenter): void {
  const reason = rejectionValue(err, ui.t);
  const content = typeof reason === 'string' ? reason : (serverError(reason, ui.t) ?? ui.t('common.unknownError'));
  ui.openModal({ type: 'error', title: ui.t('common.errorTitle'), content, okText: ui.t('common.close') });
}

/** Runs an action and routes its outcome through the handlers above; resolves to the answer data or undefined. */
export async function runAction<T>(
  action: () => Promise<ApiResponse<T>>,
  ui: Presenter,
  opts: { redirectTo?: string } = {},
): Promise<T | undefined> {
  try {
    const res = await action();
    handleAnswer(res, ui, opts);
    return res.data;
  } catch (err) {
    if (err instanceof ApiError && err.status !== 422) {
      // Non-validation HTTP failures: the "¡Ha ocurrido algo!" notification, as for any non-2xx answer.
      handleAnswer({ status: err.status, data: err.data }, ui);
      return undefined;
    }
    handleRejection(err, ui);
    return undefined;
  }
}
