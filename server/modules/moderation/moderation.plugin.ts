/**
 * Exposes the configured photo screening to routes as `app.moderation` (MODERATION_PROVIDER: the local model by
 * default, or Sightengine; the stub in tests). `app.moderation.screen(image)` never throws: it answers suitable,
 * unsuitable or failed, with the scores. The provider is closed with the app (the local model's worker ends); the local
 * model's worker also ends after MODERATION_IDLE_MS without a check, and the next check starts it again.
 */
import fp from 'fastify-plugin';
import sharp from 'sharp';
import type { ModerationConfig } from '../../config.ts';
import { createLocalNsfwProvider } from './local-nsfw.ts';
import { screen, type ModerationImage, type ModerationProvider, type ScreeningOutcome } from './moderation.ts';
import { createSightengineProvider } from './sightengine.ts';
import { createStubProvider } from './stub.ts';

export interface Moderation {
  readonly provider: ModerationProvider;
  screen(image: ModerationImage): Promise<ScreeningOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    moderation: Moderation;
  }
}

export function createModerationProvider(config: ModerationConfig): ModerationProvider {
  switch (config.provider) {
    case 'sightengine':
      // loadConfig already refused a sightengine choice without credentials; this guards hand-made configs.
      if (!config.sightengine)
        throw new Error('MODERATION_PROVIDER=sightengine needs SIGHTENGINE_USER, SIGHTENGINE_SECRET and SIGHTENGINE_WORKFLOW');
      return createSightengineProvider(config.sightengine);
    case 'stub':
      return createStubProvider();
    case 'local':
      return createLocalNsfwProvider(config.idleMs === undefined ? {} : { idleMs: config.idleMs });
  }
}

/**
 * The test hook of ModerationConfig.testRefuseMagenta: a plain magenta photo (whatever its compression) scores
 * erotica 0.99; every other photo goes to the real provider. Stricter only: it cannot let a photo through.
 */
export function refusingMagenta(inner: ModerationProvider): ModerationProvider {
  return {
    name: inner.name,
    ...(inner.thresholds ? { thresholds: inner.thresholds } : {}),
    async check(image, signal) {
      const { channels } = await sharp(image.jpeg).stats();
      const [r, g, b] = channels.map((c) => c.mean);
      if (r! > 200 && g! < 60 && b! > 200)
        return { scores: { sexual_activity: 0, sexual_display: 0, erotica: 0.99 }, details: { test_hook: 'magenta' } };
      return inner.check(image, signal);
    },
    ...(inner.warmUp ? { warmUp: () => inner.warmUp!() } : {}),
    close: () => inner.close(),
  };
}

export default fp<{ provider?: ModerationProvider }>(async (app, opts) => {
  const configured = opts.provider ?? createModerationProvider(app.config.moderation);
  const provider = app.config.moderation.testRefuseMagenta ? refusingMagenta(configured) : configured;
  const timeoutMs = app.config.moderation.timeoutMs;
  app.decorate('moderation', { provider, screen: (image: ModerationImage) => screen(provider, image, timeoutMs) });
  app.addHook('onClose', async () => provider.close());
  // Kept for the life of the process (MODERATION_IDLE_MS=0), the model loads in production right after start-up rather
  // than during someone's first upload. Otherwise it loads on the first check: loading it at start-up would hold its
  // memory through the first quiet period for nothing, and the first upload after every quiet period waits for the
  // load anyway (docs/decisions/0024-server-memory.md).
  if (app.config.env === 'production' && app.config.moderation.idleMs === 0 && provider.warmUp) {
    app.addHook('onReady', async () => {
      provider.warmUp!().catch((err: unknown) => app.log.error({ err }, 'moderation: the local model failed to load'));
    });
  }
});
