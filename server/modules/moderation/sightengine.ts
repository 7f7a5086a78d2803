/**
 * Sightengine's workflow API (https://sightengine.com/docs/image-moderation-workflows): the photo's bytes are posted
 * with the workflow id and the credentials, from the server only (the secret never reaches a browser). The workflow
 * must include the nudity-2.1 model; its intensity scores `sexual_activity`, `sexual_display` and `erotica` are
 * judged with our own thresholds (SPEC §5), whatever `summary.action` the workflow's rules decided — the rules on
 * Sightengine's dashboard can drift, the spec's numbers cannot.
 *
 * Answer shape relied on (extra fields are ignored, as Sightengine asks):
 *   { status: 'success', request: { id }, summary: { action, reject_prob }, nudity: { sexual_activity, sexual_display,
 *     erotica, very_suggestive, suggestive, mildly_suggestive, none, … }, media: { id } }
 *   { status: 'failure', error: { type, code, message } }
 */
import { ModerationFailure, type ModerationImage, type ModerationProvider, type ModerationResult } from './moderation.ts';

export interface SightengineOptions {
  user: string;
  secret: string;
  workflow: string;
  /** The check-workflow endpoint; tests point it at a local stand-in. */
  url: string;
}

interface SightengineAnswer {
  status?: string;
  request?: { id?: string };
  summary?: { action?: string; reject_prob?: number };
  nudity?: Record<string, unknown>;
  error?: { type?: string; code?: number; message?: string };
}

const INTENSITY = ['sexual_activity', 'sexual_display', 'erotica', 'very_suggestive', 'suggestive', 'mildly_suggestive', 'none'];

export function createSightengineProvider(opts: SightengineOptions): ModerationProvider {
  return {
    name: 'sightengine',
    async check(image: ModerationImage, signal: AbortSignal): Promise<ModerationResult> {
      const form = new FormData();
      form.set('media', new Blob([new Uint8Array(image.jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
      form.set('workflow', opts.workflow);
      form.set('api_user', opts.user);
      form.set('api_secret', opts.secret);
      let res: Response;
      try {
        res = await fetch(opts.url, { method: 'POST', body: form, signal });
      } catch (err) {
        throw new ModerationFailure(`request failed: ${err instanceof Error ? err.message : String(err)}`, err);
      }
      let body: SightengineAnswer;
      try {
        body = (await res.json()) as SightengineAnswer;
      } catch (err) {
        throw new ModerationFailure(`HTTP ${res.status}: answer is not JSON`, err);
      }
      if (!res.ok || body.status !== 'success') {
        // Never echo the request (it carries the secret); the provider's own message is safe to log.
        throw new ModerationFailure(`HTTP ${res.status}: ${body.error?.message ?? body.status ?? 'no status'}`);
      }
      const n = body.nudity;
      if (!n) throw new ModerationFailure('answer has no nudity scores: add the nudity-2.1 model to the workflow');
      const details: Record<string, unknown> = {};
      for (const k of INTENSITY) if (typeof n[k] === 'number') details[k] = n[k];
      if (body.summary?.action) details.action = body.summary.action;
      if (body.request?.id) details.request_id = body.request.id;
      return {
        scores: {
          sexual_activity: n.sexual_activity as number,
          sexual_display: n.sexual_display as number,
          erotica: n.erotica as number,
        },
        details,
      };
    },
    async close() {},
  };
}
