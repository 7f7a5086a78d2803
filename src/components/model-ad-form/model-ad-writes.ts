/**
 * The queueable writes of a model with its ad (issue 15), one module for both who edit one: the model (her own
 * profile) and her publicist (a managed model). The edit and the ad's on/off switch go through the outbox's one path
 * (src/offline/send-or-queue.ts): sent at once when online with the op's key as `Idempotency-Key`, queued when offline
 * or when the request fails for want of network, and shown as pending until the replay applies them. Edits and the
 * switch are separate scopes (the switch does not change the model's version). What differs per side — paths, scopes,
 * outbox kinds, the query to refresh — is the target's, below.
 */
import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import type { adAnswerSchema, ModelWithAd, modelProfileAnswerSchema } from '#contract/profiles.ts';
import type { PublicistModelInput, publicistModelAnswerSchema } from '#contract/publicists.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import { sendOrQueue } from '#src/offline/send-or-queue.ts';
import type { Json, OpKind } from '#src/offline/types.ts';

/** Who saves the model, and so where her writes go. */
interface ModelAdTarget<T extends { body: object; saved: Answer; switched: Answer }> {
  editScope: (id: number) => string;
  switchScope: (id: number) => string;
  updateKind: OpKind;
  updateLabel: string;
  updatePath: (id: number) => string;
  /** Where the replay reads the saved record after a 409. */
  currentPath: (id: number) => string;
  switchKind: OpKind;
  switchPath: (id: number, on: boolean) => string;
  /** The outbox op's meta naming what it is about (the outbox screen links back with it). */
  editMeta: (id: number) => Record<string, number>;
  switchMeta: (id: number) => Record<string, number>;
  /** Phantom: the body the edit sends, and the answers the edit and the switch get. */
  _types?: T;
}

/** The model's own profile and ad (her ad's switch is keyed by the ad's id). */
export const OWN_MODEL_AD: ModelAdTarget<{
  body: ModelWithAd;
  saved: z.infer<typeof modelProfileAnswerSchema>;
  switched: z.infer<typeof adAnswerSchema>;
}> = {
  editScope: (profileId) => `model-profile:${profileId}`,
  switchScope: (adId) => `model-ad:${adId}:active`,
  updateKind: 'profile.update',
  updateLabel: 'outbox.kind.profileUpdate',
  updatePath: API.modelWithAdUpdate,
  currentPath: () => API.modelProfile,
  switchKind: 'ad.activate',
  switchPath: API.modelAdActivate,
  editMeta: (profileId) => ({ profileId }),
  switchMeta: (adId) => ({ adId }),
};

/** A publicist's managed model (her ad's switch is keyed by the model's id). */
export const MANAGED_MODEL_AD: ModelAdTarget<{
  body: PublicistModelInput;
  saved: z.infer<typeof publicistModelAnswerSchema>;
  switched: z.infer<typeof publicistModelAnswerSchema>;
}> = {
  editScope: (id) => `publicist-model:${id}`,
  switchScope: (id) => `publicist-model:${id}:active`,
  updateKind: 'publicist.model.update',
  updateLabel: 'outbox.kind.modelUpdate',
  updatePath: API.publicistModelUpdate,
  currentPath: API.publicistModel,
  switchKind: 'publicist.model.activate',
  switchPath: API.publicistModelActivate,
  editMeta: (modelId) => ({ modelId }),
  switchMeta: (modelId) => ({ modelId }),
};

export function queueableModelAdUpdate<T extends { body: object; saved: Answer; switched: Answer }>(
  target: ModelAdTarget<T>,
  userId: number,
  model: { id: number; display_name: string },
  body: T['body'] & { version: number },
  meta: { values: unknown; editPath: string },
  /** The query key to refresh once the replay has applied the edit. */
  invalidate: readonly Json[],
) {
  const path = target.updatePath(model.id);
  return sendOrQueue(
    {
      userId,
      scope: target.editScope(model.id),
      kind: target.updateKind,
      method: 'PUT',
      path,
      body: JSON.parse(JSON.stringify(body)) as Json,
      baseVersion: body.version,
      label: target.updateLabel,
      summary: model.display_name,
      invalidate: [[...invalidate]],
      currentPath: target.currentPath(model.id),
      meta: { ...target.editMeta(model.id), ...meta },
      coalesce: true,
    },
    (idempotencyKey) => apiRequest<T['saved']>(path, { method: 'PUT', body, idempotencyKey }),
  );
}

/**
 * Switches the ad on or off; `id` is what the target keys the switch by. Flipped twice offline: only the last
 * position is sent.
 */
export function queueableAdSwitch<T extends { body: object; saved: Answer; switched: Answer }>(
  target: ModelAdTarget<T>,
  userId: number,
  subject: { id: number; summary: string },
  on: boolean,
  invalidate: readonly Json[],
) {
  const path = target.switchPath(subject.id, on);
  return sendOrQueue(
    {
      userId,
      scope: target.switchScope(subject.id),
      kind: target.switchKind,
      method: 'PUT',
      path,
      label: on ? 'outbox.kind.adOn' : 'outbox.kind.adOff',
      summary: subject.summary,
      invalidate: [[...invalidate]],
      meta: { ...target.switchMeta(subject.id), on },
      coalesce: true,
    },
    (idempotencyKey) => apiRequest<T['switched']>(path, { method: 'PUT', idempotencyKey }),
  );
}
