/**
 * How a queueable write went, told the way every screen tells it: the server's answer as any write's (notice,
 * errors), "saved on this device" when it was queued, a clear message when the device is out of space, and the
 * usual error handling otherwise. For the page only (the worker replays without a screen).
 */
import type { ApiResponse } from '#src/lib/api-client.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { DEFAULT_PLACEMENT, handleAnswer, handleRejection, type Presenter } from '#src/lib/response-handler.ts';
import { OutboxQuotaError } from './outbox.ts';
import type { SendOrQueueResult } from './send-or-queue.ts';

/** Resolves to true when the write was queued (nothing changed on the server yet: no refetch, offline it would fail). */
export async function reportQueueableWrite(
  write: () => Promise<SendOrQueueResult<ApiResponse<unknown>>>,
  ui: Presenter,
  t: (key: string) => string,
): Promise<boolean> {
  try {
    const res = await write();
    if (res.queued) {
      ui.notify({ type: 'info', message: t('outbox.savedPending'), placement: DEFAULT_PLACEMENT });
      return true;
    }
    handleAnswer({ status: res.sent.status, data: res.sent.data }, ui);
  } catch (err) {
    if (err instanceof OutboxQuotaError) ui.notify({ type: 'error', message: t('outbox.quota'), placement: DEFAULT_PLACEMENT });
    else if (err instanceof ApiError) handleAnswer({ status: err.status, data: err.data }, ui);
    else handleRejection(err, ui);
  }
  return false;
}
