/**
 * The model's queueable writes (issue 15): the profile-and-ad edit and the ad's on/off switch go through the outbox's
 * one path (src/offline/send-or-queue.ts): sent at once when online with the op's key as `Idempotency-Key`, queued
 * when offline or when the request fails for want of network, and shown as pending until the replay applies them.
 */
import type { ModelWithAd } from '#contract/profiles.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import { sendOrQueue } from '#src/offline/send-or-queue.ts';
import type { Json } from '#src/offline/types.ts';
import { MODEL_PROFILE_KEY, type ProfileAnswer } from '../api/model-profile-api.ts';

export const profileEditScope = (profileId: number) => `model-profile:${profileId}`;
export const adSwitchScope = (adId: number) => `model-ad:${adId}:active`;

export function queueableProfileUpdate(
  userId: number,
  profile: { id: number; display_name: string },
  body: ModelWithAd & { version: number },
  meta: { values: unknown; editPath: string },
) {
  const path = API.modelWithAdUpdate(profile.id);
  return sendOrQueue(
    {
      userId,
      scope: profileEditScope(profile.id),
      kind: 'profile.update',
      method: 'PUT',
      path,
      body: JSON.parse(JSON.stringify(body)) as Json,
      baseVersion: body.version,
      label: 'outbox.kind.profileUpdate',
      summary: profile.display_name,
      invalidate: [[...MODEL_PROFILE_KEY]],
      currentPath: API.modelProfile,
      meta: { profileId: profile.id, ...meta },
      coalesce: true,
    },
    (idempotencyKey) => apiRequest<ProfileAnswer>(path, { method: 'PUT', body, idempotencyKey }),
  );
}

export function queueableAdSwitch(userId: number, ad: { id: number; title: string }, on: boolean) {
  const path = API.modelAdActivate(ad.id, on);
  return sendOrQueue(
    {
      userId,
      scope: adSwitchScope(ad.id),
      kind: 'ad.activate',
      method: 'PUT',
      path,
      label: on ? 'outbox.kind.adOn' : 'outbox.kind.adOff',
      summary: ad.title,
      invalidate: [[...MODEL_PROFILE_KEY]],
      meta: { adId: ad.id, on },
      coalesce: true,
    },
    (idempotencyKey) => apiRequest(path, { method: 'PUT', idempotencyKey }),
  );
}
