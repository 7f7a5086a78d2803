/**
 * Saving a model with her ad, the same for her own profile and a publicist's model: a save replaces what waited in the
 * outbox for her, may itself be queued (offline), a full device storage is said plainly, and a stale version (409)
 * hands the saved record to the form instead of overwriting someone else's change.
 */
import type { TFunction } from '#src/lib/i18n-core.ts';
import type { Answer } from '#contract/answers.ts';
import { ConflictError, type ApiResponse } from '#src/lib/api-client.ts';
import type { useApiForm } from '#src/lib/forms.ts';
import { DEFAULT_PLACEMENT, handleAnswer } from '#src/lib/response-handler.ts';
import { OutboxQuotaError } from '#src/offline/outbox.ts';
import type { SendOrQueueResult } from '#src/offline/send-or-queue.ts';
import type { OutboxOp } from '#src/offline/types.ts';

type ApiForm = Pick<ReturnType<typeof useApiForm<string>>, 'run' | 'fail' | 'ui'>;

export interface SaveModelAdOptions<S extends Answer & { data: unknown }> {
  /** A queued edit of this model, which this save replaces. */
  queued?: OutboxOp;
  dropQueued?: () => Promise<void>;
  send: () => Promise<SendOrQueueResult<ApiResponse<S>>>;
  /** The server holds a newer version (409): the saved record; true when the form took it over. */
  onStale: (current: S['data']) => boolean;
  onQueued?: () => void;
  onSaved: (saved: S['data']) => void;
}

export async function saveModelAd<S extends Answer & { data: unknown }>(form: ApiForm, t: TFunction, o: SaveModelAdOptions<S>) {
  let wasQueued = false;
  const res = await form.run(
    async () => {
      if (o.queued) await o.dropQueued?.();
      const result = await o.send();
      if (!result.queued) return result.sent;
      wasQueued = true;
      return { status: 202, data: undefined as unknown as S };
    },
    {
      onError: (err) => {
        if (err instanceof OutboxQuotaError) {
          form.fail({ _: t('outbox.quota') });
          return true;
        }
        const data = (err instanceof ConflictError ? err.data?.data : undefined) as { current?: S['data'] } | undefined;
        return data?.current ? o.onStale(data.current) : false;
      },
    },
  );
  if (!res) return;
  if (wasQueued) {
    form.ui.notify({ type: 'info', message: t('outbox.savedPending'), placement: DEFAULT_PLACEMENT });
    o.onQueued?.();
    return;
  }
  handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
  o.onSaved(res.data.data);
}
