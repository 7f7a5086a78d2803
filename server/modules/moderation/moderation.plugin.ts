/**
 * Exposes the configured photo screening to routes as `app.moderation` (MODERATION_PROVIDER: the local model by
 * default, or Sightengine; the stub in tests). `app.moderation.screen(image)` never throws: it answers suitable,
 * unsuitable or failed, with the scores. The provider is closed with the app (the local model's worker ends).
 */
import fp from 'fastify-plugin';
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
      return createLocalNsfwProvider();
  }
}

export default fp<{ provider?: ModerationProvider }>(async (app, opts) => {
  const provider = opts.provider ?? createModerationProvider(app.config.moderation);
  const timeoutMs = app.config.moderation.timeoutMs;
  app.decorate('moderation', { provider, screen: (image: ModerationImage) => screen(provider, image, timeoutMs) });
  app.addHook('onClose', async () => provider.close());
  // In production the model loads right after start-up rather than during someone's first upload.
  if (app.config.env === 'production' && provider.warmUp) {
    app.addHook('onReady', async () => {
      provider.warmUp!().catch((err: unknown) => app.log.error({ err }, 'moderation: the local model failed to load'));
    });
  }
});
