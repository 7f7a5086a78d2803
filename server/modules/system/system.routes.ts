/** Health and readiness (operations.routes.ts) and the public runtime configuration of the browser (no secrets). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LANGUAGES } from '#contract/languages.ts';
import { publicConfigSchema, type PublicConfig } from '#contract/config.ts';
import type { Config } from '../../config.ts';
import { API } from '#contract/routes.ts';
import { operationsRoutes } from './operations.routes.ts';

/**
 * Where the browser's pusher-js connects: the app's own origin (APP_URL) with the embedded server, the configured
 * server with the `pusher` driver. Only the key: never the app id or the secret.
 */
function browserRealtime(config: Config): PublicConfig['realtime'] {
  const { realtime } = config;
  if (realtime.driver === 'pusher')
    return { key: realtime.key, host: realtime.host!, port: realtime.port!, force_tls: realtime.scheme === 'https' };
  const url = new URL(config.appUrl);
  const tls = url.protocol === 'https:';
  return { key: realtime.key, host: url.hostname, port: url.port ? Number(url.port) : tls ? 443 : 80, force_tls: tls };
}

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // GET /api/health and /api/ready.
  await app.register(operationsRoutes);
  app.get(API.config, { schema: { response: { 200: publicConfigSchema } } }, async () => ({
    app_name: 'Vitrina',
    languages: [...LANGUAGES],
    realtime: browserRealtime(app.config),
    push: { vapid_public_key: app.config.push.vapid.publicKey },
    // Only the URLs and attribution the browser needs (issue 16); absent: the embedded base map.
    ...(app.config.map
      ? { map: { style_url: app.config.map.styleUrl, tiles_url: app.config.map.tilesUrl, attribution: app.config.map.attribution } }
      : {}),
  }));
};
