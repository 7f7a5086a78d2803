/**
 * Uploads screened by the real providers: Sightengine's workflow API (a local stand-in answering in its format) and
 * the local nsfwjs model. The other media tests use the stub provider and never load the model.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '#contract/media.ts';
import { media } from '#server/db/schema.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { LOCAL_THRESHOLDS } from '../moderation/local-nsfw.ts';
import { startSightengineStandIn, workflowAnswer, type SightengineStandIn } from '../moderation/sightengine-stand-in.ts';
import { jpeg } from './test-images.ts';
import { loginAs, uploadBody } from './test-helpers.ts';

let n = 0;
async function uploadTo(t: TestApp, files: { filename: string; data: Buffer }[]) {
  const m = await buildModel(t.database.db, { name: `Modelo ${++n}` });
  const agent = await loginAs(t.app, t.database.db, m.userId);
  const body = uploadBody(m.adId, files);
  const res = await agent.post('/api/upload/images', body.payload, body.headers);
  return { res, adId: m.adId };
}

describe('uploads screened by Sightengine (local stand-in)', () => {
  let standIn: SightengineStandIn;
  let t: TestApp;
  beforeAll(async () => {
    standIn = await startSightengineStandIn();
    t = await createTestApp({
      moderation: {
        provider: 'sightengine',
        timeoutMs: 500,
        sightengine: { user: 'api-user', secret: 'api-secret', workflow: 'wfl_vitrina', url: standIn.url },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  it.each([
    [{ sexual_activity: 0.1, sexual_display: 0.1, erotica: 0.4 }, 201, null, null],
    [{ sexual_activity: 0.1001 }, 422, 'unsuitable', 'sexual_activity'],
    [{ sexual_display: 0.1001 }, 422, 'unsuitable', 'sexual_display'],
    [{ erotica: 0.4001 }, 422, 'unsuitable', 'erotica'],
  ] as const)('scores %o → %i %s %s (SPEC §5 thresholds kept for Sightengine)', async (scores, status, reason, rule) => {
    standIn.reply({ body: workflowAnswer(scores) });
    const { res } = await uploadTo(t, [{ filename: 'photo.jpg', data: await jpeg(800, 600) }]);
    expect(res.statusCode).toBe(status);
    const data = status === 201 ? res.json<UploadAnswer>().data : res.json<{ data: UploadAnswer['data'] }>().data;
    if (reason) {
      const words = {
        sexual_activity: 'actividad sexual explícita',
        sexual_display: 'desnudez explícita',
        erotica: 'erotismo (contenido sugerente)',
      };
      // The refusal names its rule and that it was automated, and offers a person's review (issue 24 B7).
      expect(data.refused).toEqual([
        {
          file: 'photo.jpg',
          index: 0,
          reason,
          message: `La revisión automática ha rechazado la foto: ${words[rule]}.`,
          review: { token: expect.any(String) as string, rule, automated: true, expires_at: expect.any(String) as string },
        },
      ]);
    } else {
      expect(data.media).toHaveLength(1);
      const [row] = await t.database.db.select().from(media).where(eq(media.id, data.media[0]!.media_id));
      expect(row!.moderation).toMatchObject({ provider: 'sightengine', scores, details: { request_id: 'req_standin' } });
    }
  });

  it('refuses the photo when the check fails (HTTP 500) or does not answer in time', async () => {
    standIn.reply({ status: 500, body: { status: 'failure', error: { type: 'internal', code: 500, message: 'oops' } } });
    const failed = await uploadTo(t, [{ filename: 'a.jpg', data: await jpeg(400, 300) }]);
    expect(failed.res.statusCode).toBe(422);
    expect(failed.res.json()).toMatchObject({
      data: { refused: [{ reason: 'moderation_failed', message: 'No hemos podido revisar la foto. Inténtalo de nuevo.' }] },
    });
    standIn.reply({ hang: true });
    const slow = await uploadTo(t, [{ filename: 'b.jpg', data: await jpeg(400, 300) }]);
    expect(slow.res.json()).toMatchObject({ data: { refused: [{ reason: 'moderation_failed' }] } });
    // Nothing of either photo was kept.
    expect(await t.database.db.select().from(media).where(eq(media.adId, failed.adId))).toEqual([]);
  });

  it('screens each file on its own: suitable ones are kept beside unsuitable ones', async () => {
    standIn.reply({ body: workflowAnswer({ erotica: 0.9 }) });
    const { res } = await uploadTo(t, [{ filename: 'x.jpg', data: await jpeg(400, 300) }]);
    expect(res.statusCode).toBe(422);
    standIn.reply({ body: workflowAnswer({}) });
    const ok = await uploadTo(t, [
      { filename: 'y.jpg', data: await jpeg(400, 300) },
      { filename: 'z.jpg', data: await jpeg(400, 300, 2) },
    ]);
    expect(ok.res.json<UploadAnswer>().data.media.map((m) => m.file)).toEqual(['y.jpg', 'z.jpg']);
    // The secret went to the provider only, as a form field of the server's request.
    expect(standIn.requests.every((r) => r.fields.api_secret === 'api-secret' && r.fields.workflow === 'wfl_vitrina')).toBe(true);
    expect(ok.res.body).not.toContain('api-secret');
  });
});

describe('uploads screened by the local model', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ moderation: { provider: 'local', timeoutMs: 60_000, sightengine: undefined } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('screens a generated photo with nsfwjs and judges it by the thresholds', { timeout: 120_000 }, async () => {
    const { res, adId } = await uploadTo(t, [{ filename: 'generated.jpg', data: await jpeg(1200, 900) }]);
    const rows = await t.database.db.select().from(media).where(eq(media.adId, adId));
    if (res.statusCode === 201) {
      const m = rows[0]!.moderation!;
      expect(m.provider).toBe('local');
      const { sexual_activity, sexual_display, erotica } = m.scores;
      for (const v of [sexual_activity, sexual_display, erotica]) expect(v).toBeGreaterThanOrEqual(0);
      expect(
        sexual_activity <= LOCAL_THRESHOLDS.sexual_activity &&
          sexual_display <= LOCAL_THRESHOLDS.sexual_display &&
          erotica <= LOCAL_THRESHOLDS.erotica,
      ).toBe(true);
      expect(Object.keys(m.details!.classes as object).sort()).toEqual(['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy']);
    } else {
      // The model found the noise unsuitable: refused as such, never as a failed check.
      expect(res.json()).toMatchObject({ data: { refused: [{ reason: 'unsuitable' }] } });
      expect(rows).toEqual([]);
    }
  });
});
