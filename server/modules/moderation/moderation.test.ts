import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createLocalNsfwProvider, LOCAL_THRESHOLDS, scoresFromNsfwClasses } from './local-nsfw.ts';
import { isUnsuitable, refusingRule, screen, type ModerationImage } from './moderation.ts';
import { createSightengineProvider } from './sightengine.ts';
import { startSightengineStandIn, workflowAnswer, type SightengineStandIn } from './sightengine-stand-in.ts';
import { createStubProvider } from './stub.ts';

async function jpegImage(): Promise<ModerationImage> {
  // A generated picture: a warm gradient with some noise, nothing a person would call explicit.
  const width = 320;
  const height = 240;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x ^ y) * 7) & 0xff;
    }
  const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
  return { jpeg, width, height };
}

const zero = { sexual_activity: 0, sexual_display: 0, erotica: 0 };

describe('thresholds (SPEC §5)', () => {
  it('lets a score exactly at its threshold pass and refuses anything above', () => {
    expect(isUnsuitable({ ...zero, sexual_activity: 0.1 })).toBe(false);
    expect(isUnsuitable({ ...zero, sexual_activity: 0.1001 })).toBe(true);
    expect(isUnsuitable({ ...zero, sexual_display: 0.1 })).toBe(false);
    expect(isUnsuitable({ ...zero, sexual_display: 0.1001 })).toBe(true);
    expect(isUnsuitable({ ...zero, erotica: 0.4 })).toBe(false);
    expect(isUnsuitable({ ...zero, erotica: 0.4001 })).toBe(true);
    expect(isUnsuitable({ sexual_activity: 0.1, sexual_display: 0.1, erotica: 0.4 })).toBe(false);
  });

  it('counts a check that throws, hangs or answers nonsense as failed', async () => {
    const image = await jpegImage();
    const throwing = createStubProvider(() => {
      throw new Error('boom');
    });
    expect(await screen(throwing, image, 1000)).toMatchObject({ verdict: 'failed', error: 'boom' });
    const hanging = createStubProvider(() => new Promise(() => {}));
    expect(JSON.stringify(await screen(hanging, image, 50))).toMatch(/"verdict":"failed".*timed out/);
    const nonsense = createStubProvider(() => ({ ...zero, erotica: Number.NaN }));
    expect(await screen(nonsense, image, 1000)).toMatchObject({ verdict: 'failed' });
    const outOfRange = createStubProvider(() => ({ ...zero, sexual_display: 1.5 }));
    expect(await screen(outOfRange, image, 1000)).toMatchObject({ verdict: 'failed' });
  });
});

describe('configuration', () => {
  it('uses the local model by default', () => {
    expect(loadConfig({}).moderation).toMatchObject({ provider: 'local', sightengine: undefined });
  });
  it('refuses Sightengine without its credentials, naming each missing variable', () => {
    expect(() => loadConfig({ MODERATION_PROVIDER: 'sightengine', SIGHTENGINE_USER: 'u' })).toThrow(ConfigError);
    try {
      loadConfig({ MODERATION_PROVIDER: 'sightengine', SIGHTENGINE_USER: 'u' });
    } catch (err) {
      expect((err as Error).message).toMatch(/SIGHTENGINE_SECRET/);
      expect((err as Error).message).toMatch(/SIGHTENGINE_WORKFLOW/);
      expect((err as Error).message).not.toMatch(/SIGHTENGINE_USER/);
    }
    expect(() => loadConfig({ MODERATION_PROVIDER: 'nope' })).toThrow(/MODERATION_PROVIDER/);
  });
  it('takes the credentials, the workflow and the endpoint from the environment', () => {
    const c = loadConfig({
      MODERATION_PROVIDER: 'sightengine',
      SIGHTENGINE_USER: 'u',
      SIGHTENGINE_SECRET: 's',
      SIGHTENGINE_WORKFLOW: 'wfl_1',
      SIGHTENGINE_URL: 'http://127.0.0.1:9/x',
    });
    expect(c.moderation).toMatchObject({
      provider: 'sightengine',
      sightengine: { user: 'u', secret: 's', workflow: 'wfl_1', url: 'http://127.0.0.1:9/x' },
    });
    expect(loadConfig({}).moderation.timeoutMs).toBe(15_000);
  });
});

describe('Sightengine workflow provider (against a local stand-in)', () => {
  let standIn: SightengineStandIn;
  beforeAll(async () => {
    standIn = await startSightengineStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });
  const provider = () => createSightengineProvider({ user: 'api-user', secret: 'api-secret-xyz', workflow: 'wfl_test', url: standIn.url });

  it('posts the photo with the workflow and the credentials', async () => {
    const image = await jpegImage();
    standIn.reply({ body: workflowAnswer({}) });
    const before = standIn.requests.length;
    expect(await screen(provider(), image, 2000)).toMatchObject({ verdict: 'suitable', provider: 'sightengine' });
    const req = standIn.requests[before]!;
    expect(req.fields).toMatchObject({ workflow: 'wfl_test', api_user: 'api-user', api_secret: 'api-secret-xyz' });
    expect(req.mediaBytes).toBe(image.jpeg.length);
  });

  it.each([
    [{ sexual_activity: 0.1 }, 'suitable'],
    [{ sexual_activity: 0.1001 }, 'unsuitable'],
    [{ sexual_display: 0.1 }, 'suitable'],
    [{ sexual_display: 0.1001 }, 'unsuitable'],
    [{ erotica: 0.4 }, 'suitable'],
    [{ erotica: 0.4001 }, 'unsuitable'],
  ])('judges %o as %s', async (scores, verdict) => {
    standIn.reply({ body: workflowAnswer(scores) });
    const outcome = await screen(provider(), await jpegImage(), 2000);
    expect(outcome.verdict).toBe(verdict);
    if (outcome.verdict !== 'failed') expect(outcome.scores).toMatchObject(scores);
  });

  it('applies the spec thresholds even when the workflow itself accepted', async () => {
    const body = workflowAnswer({ erotica: 0.5 });
    body.summary.action = 'accept';
    standIn.reply({ body });
    expect((await screen(provider(), await jpegImage(), 2000)).verdict).toBe('unsuitable');
  });

  it.each([
    ['an HTTP 500', { status: 500, body: { status: 'failure', error: { type: 'internal', code: 500, message: 'oops' } } }],
    ['a failure answer', { status: 200, body: { status: 'failure', error: { type: 'credentials_error', code: 1, message: 'bad key' } } }],
    ['an answer without nudity scores', { status: 200, body: { status: 'success', summary: { action: 'accept' } } }],
    ['a body that is not JSON', { status: 502, body: '<html>bad gateway</html>' }],
  ])('counts %s as a failed check, without leaking the secret', async (_label, reply) => {
    standIn.reply(reply);
    const outcome = await screen(provider(), await jpegImage(), 2000);
    expect(outcome.verdict).toBe('failed');
    expect(JSON.stringify(outcome)).not.toContain('api-secret-xyz');
  });

  it('counts a provider that does not answer in time as a failed check', async () => {
    standIn.reply({ hang: true });
    const started = Date.now();
    const outcome = await screen(provider(), await jpegImage(), 300);
    expect(JSON.stringify(outcome)).toMatch(/"verdict":"failed".*timed out/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('counts an unreachable provider as a failed check', async () => {
    const p = createSightengineProvider({ user: 'u', secret: 's', workflow: 'w', url: 'http://127.0.0.1:9/unreachable' });
    expect((await screen(p, await jpegImage(), 2000)).verdict).toBe('failed');
  });
});

describe('local model (nsfwjs MobileNetV2Mid, WASM, worker thread)', () => {
  it('maps the five classes onto the three scores', () => {
    expect(scoresFromNsfwClasses({ Porn: 0.2, Hentai: 0.05, Sexy: 0.5, Neutral: 0.2, Drawing: 0.05 })).toEqual({
      sexual_activity: 0.2,
      sexual_display: 0.05,
      erotica: 0.5,
    });
    expect(scoresFromNsfwClasses({})).toEqual(zero);
  });

  it('scores a generated image in [0, 1] and judges it by the thresholds', { timeout: 120_000 }, async () => {
    const provider = createLocalNsfwProvider();
    try {
      const image = await jpegImage();
      const outcome = await screen(provider, image, 60_000);
      expect(outcome.verdict).not.toBe('failed');
      if (outcome.verdict === 'failed') return;
      for (const v of Object.values(outcome.scores)) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(outcome.verdict).toBe(isUnsuitable(outcome.scores, LOCAL_THRESHOLDS) ? 'unsuitable' : 'suitable');
      const classes = outcome.details?.classes as Record<string, number>;
      expect(Object.keys(classes).sort()).toEqual(['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy']);
      expect(Object.values(classes).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
      // The model is loaded once: a second check answers without loading it again.
      const again = await screen(provider, image, 10_000);
      expect(again).toMatchObject({ verdict: outcome.verdict, scores: outcome.scores });
    } finally {
      await provider.close();
    }
  });

  it('ends its worker after the quiet period, and the next check starts a new one', { timeout: 120_000 }, async () => {
    const provider = createLocalNsfwProvider({ idleMs: 200 });
    try {
      const image = await jpegImage();
      expect(provider.running).toBe(false);
      const first = await screen(provider, image, 60_000);
      if (first.verdict === 'failed') throw new Error(first.error);
      expect(provider.starts).toBe(1);
      await vi.waitFor(() => expect(provider.running).toBe(false), { timeout: 10_000, interval: 50 });
      const again = await screen(provider, image, 60_000);
      expect(again).toMatchObject({ verdict: first.verdict, scores: first.scores });
      expect(provider.starts).toBe(2);
    } finally {
      await provider.close();
    }
  });

  it('keeps the worker while checks keep coming, and for ever with idleMs 0', { timeout: 120_000 }, async () => {
    const image = await jpegImage();
    const busy = createLocalNsfwProvider({ idleMs: 60_000 });
    const forever = createLocalNsfwProvider({ idleMs: 0 });
    try {
      // Several checks at once, then one after another: one worker serves them all.
      const outcomes = await Promise.all([1, 2, 3].map(() => screen(busy, image, 60_000)));
      for (const o of outcomes) expect(o.verdict).not.toBe('failed');
      expect((await screen(busy, image, 60_000)).verdict).not.toBe('failed');
      expect(busy.starts).toBe(1);
      expect(busy.running).toBe(true);
      await forever.warmUp!();
      expect(forever.running).toBe(true);
      expect((await screen(forever, image, 60_000)).verdict).not.toBe('failed');
      expect(forever.starts).toBe(1);
    } finally {
      await busy.close();
      await forever.close();
    }
    expect(busy.running).toBe(false);
  });

  it(
    'accepts the ordinary photos of clothed women it used to refuse (face-api demo photos, issue 24 B7)',
    { timeout: 120_000 },
    async () => {
      const provider = createLocalNsfwProvider();
      try {
        for (const n of [2, 3, 5, 6]) {
          const file = fileURLToPath(new URL(`../../../node_modules/@vladmandic/face-api/demo/sample${n}.jpg`, import.meta.url));
          const copy = await sharp(file)
            .resize({ width: 640, height: 640, fit: 'inside' })
            .jpeg({ quality: 85 })
            .toBuffer({ resolveWithObject: true });
          const outcome = await screen(provider, { jpeg: copy.data, width: copy.info.width, height: copy.info.height }, 60_000);
          expect(outcome, file).toMatchObject({ verdict: 'suitable' });
        }
      } finally {
        await provider.close();
      }
    },
  );
});

describe('the rule a refusal names', () => {
  it('is the score furthest over its threshold, relative to it; none within the thresholds', () => {
    expect(refusingRule({ sexual_activity: 0.3, sexual_display: 0, erotica: 0.9 })).toBe('sexual_activity');
    expect(refusingRule({ sexual_activity: 0.05, sexual_display: 0, erotica: 0.9 })).toBe('erotica');
    expect(refusingRule({ sexual_activity: 0.1, sexual_display: 0.1, erotica: 0.4 })).toBeNull();
    expect(refusingRule({ sexual_activity: 0.5, sexual_display: 0, erotica: 0 }, LOCAL_THRESHOLDS)).toBeNull();
  });
});
