/**
 * The publicist's queueable writes (issue 15): a model's edit and its ad's on/off switch go through the outbox's one
 * path (src/offline/send-or-queue.ts): sent at once when online, with the op's key as `Idempotency-Key`; queued when
 * offline or when the request fails for want of network, and shown as pending until the replay applies them.
 * Edits and the switch are separate scopes (the switch does not change the model's version).
 */
import type { PublicistModel, PublicistModelInput } from '#contract/publicists.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import { sendOrQueue } from '#src/offline/send-or-queue.ts';
import type { Json } from '#src/offline/types.ts';
import { PUBLICIST_KEY, type ModelAnswer } from '../api/publicist-api.ts';

export const modelEditScope = (id: number) => `publicist-model:${id}`;
export const modelSwitchScope = (id: number) => `publicist-model:${id}:active`;

export function queueableModelUpdate(
  userId: number,
  model: Pick<PublicistModel, 'id' | 'display_name'>,
  body: PublicistModelInput & { version: number },
  meta: { values: unknown; editPath: string },
) {
  const path = API.publicistModelUpdate(model.id);
  return sendOrQueue(
    {
      userId,
      scope: modelEditScope(model.id),
      kind: 'publicist.model.update',
      method: 'PUT',
      path,
      body: JSON.parse(JSON.stringify(body)) as Json,
      baseVersion: body.version,
      label: 'outbox.kind.modelUpdate',
      summary: model.display_name,
      invalidate: [[...PUBLICIST_KEY]],
      currentPath: API.publicistModel(model.id),
      meta: { modelId: model.id, ...meta },
      coalesce: true,
    },
    (idempotencyKey) => apiRequest<ModelAnswer>(path, { method: 'PUT', body, idempotencyKey }),
  );
}

export function queueableModelSwitch(userId: number, model: Pick<PublicistModel, 'id' | 'display_name'>, on: boolean) {
  const path = API.publicistModelActivate(model.id, on);
  return sendOrQueue(
    {
      userId,
      scope: modelSwitchScope(model.id),
      kind: 'publicist.model.activate',
      method: 'PUT',
      path,
      label: on ? 'outbox.kind.adOn' : 'outbox.kind.adOff',
      summary: model.display_name,
      invalidate: [[...PUBLICIST_KEY]],
      meta: { modelId: model.id, on },
      // Flipped twice offline: only the last position is sent.
      coalesce: true,
    },
    (idempotencyKey) => apiRequest<ModelAnswer>(path, { method: 'PUT', idempotencyKey }),
  );
}
