/**
 * buildApp(config, database) → a ready Fastify instance with every plugin and module registered.
 * main.ts listens with it; tests drive it with app.inject() against PGlite or a real PostgreSQL.
 */
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { validatorCompiler } from './plugins/validation.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import errorsPlugin from './plugins/errors.ts';
import i18nPlugin, { languageFromAcceptLanguage } from './plugins/i18n.ts';
import securityPlugin, { canonicalUrl } from './plugins/security.ts';
import sessionPlugin from './plugins/session.ts';
import cataloguePlugin from './plugins/catalogue.ts';
import limitsPlugin, { rateLimitStoreOptions } from './plugins/limits.ts';
import sharedRedisPlugin from './plugins/redis.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import { createMailer, type Mailer } from './plugins/mail.ts';
import { authLimitsPlugin } from './modules/auth/auth.limits.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { profilesRoutes } from './modules/profiles/profiles.routes.ts';
import { modelProfilesRoutes } from './modules/model-profiles/model-profiles.routes.ts';
import { consentRoutes } from './modules/publicists/consent.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { statementsRoutes } from './modules/statements/statements.routes.ts';
import { photoReviewsRoutes } from './modules/photo-reviews/photo-reviews.routes.ts';
import { publicistsRoutes } from './modules/publicists/publicists.routes.ts';
import { verificationRoutes } from './modules/model-profiles/verification.routes.ts';
import { listingsRoutes } from './modules/listings/listings.routes.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import moderationPlugin from './modules/moderation/moderation.plugin.ts';
import storagePlugin, { createStorage, type Storage } from './plugins/storage.ts';
import spaPlugin from './plugins/spa.ts';
import { appStartHash, themeInitHash } from './plugins/first-screen.ts';
import realtimePlugin from './plugins/realtime.ts';
import slowClientsPlugin from './plugins/slow-clients.ts';
import { loggerOptions, requestLog } from './plugins/request-log.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { forbiddenWordsRoutes } from './modules/forbidden-words/forbidden-words.routes.ts';
import { i18nRoutes } from './modules/i18n/i18n.routes.ts';
import { referenceRoutes } from './modules/reference/reference.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import readinessPlugin from './modules/system/readiness.ts';
import metricsPlugin from './plugins/metrics.ts';
import { apiDocsRoutes, openapiCollector } from './plugins/openapi.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { dataRightsRoutes } from './modules/data-rights/data-rights.routes.ts';
import jobsPlugin from './modules/jobs/jobs.plugin.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { favouritesRoutes } from './modules/favourites/favourites.routes.ts';
import { savedSearchesRoutes } from './modules/saved-searches/saved-searches.routes.ts';
import { adStatsRoutes } from './modules/ad-stats/ad-stats.routes.ts';
import { broadcastingRoutes } from './modules/broadcasting/broadcasting.routes.ts';
import { supportChatRoutes } from './modules/support-chat/support-chat.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dbKind: Database['kind'];
    mailer: Mailer;
  }
}

/**
 * Dynamic answers (JSON, the shell, text): brotli when accepted (quality 4: fast enough per request), else gzip.
 * Not images, archives or model files (already compressed or gaining little), never event streams; answers under
 * 1 KB go out as they are. Request bodies are not decompressed (a compressed upload could expand past bodyLimit).
 */
export const COMPRESS: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  customTypes: /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|javascript/,
  globalDecompression: false,
};

export async function buildApp(config: Config, database: Database, storage: Storage = createStorage(config)): Promise<FastifyInstance> {
  const app = Fastify({
    // One line per request (plugins/request-log.ts) instead of Fastify's two; readable in development.
    ...loggerOptions(config),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // Against slow clients, with the body watchdog registered below (plugins/slow-clients.ts).
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      // Node looks for expired heads and requests this often (30 s by default, which would double a 20 s limit).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(config.http.headersTimeoutMs / 4))),
    },
    // One spelling of every path for the router and every hook (security.ts: the guards decide on it).
    rewriteUrl: (req) => canonicalUrl(req.url ?? '/') ?? req.url ?? '/',
    // Fastify's own refusals before any hook runs (a path that does not decode, a parameter past maxParamLength):
    // the answer envelope like every other error, translated, instead of Fastify's body echoing the target back.
    frameworkErrors: (err, req, reply) => {
      const t = app.tFor(languageFromAcceptLanguage(req.headers['accept-language']) ?? '');
      void (reply as FastifyReply)
        .status(err.statusCode ?? 400)
        .send({ channel: 'notification', type: 'error', message: t('errors.validation_failed'), error: 'validation_failed' });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dbKind', database.kind);

  // First: it collects every route registered after it into the OpenAPI document (plugins/openapi.ts).
  await app.register(openapiCollector);
  await app.register(requestLog);
  // Prometheus metrics: GET /metrics with METRICS_TOKEN, or on METRICS_PORT; no hook at all when neither is set.
  await app.register(metricsPlugin);
  await app.register(slowClientsPlugin, { limits: config.http });
  // Before any route (it hooks each route as it is added); its onSend runs after the app's own (idempotency stores
  // the plain body). The built files are precompressed (plugins/spa.ts); see COMPRESS for what is compressed here.
  await app.register(fastifyCompress, COMPRESS);
  await app.register(fastifyCookie);
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The theme script is inlined in server-rendered pages (plugins/first-screen.ts): allowed by its hash only.
        // 'wasm-unsafe-eval': compiling our own WebAssembly (the photo uploader's face search, decision 0023); it allows
        // no eval() of strings.
        scriptSrc: [
          "'self'",
          "'wasm-unsafe-eval'",
          ...[themeInitHash(config.distDir), appStartHash(config.distDir)].filter((h): h is string => !!h),
        ],
        // Mantine injects its CSS variables in <style> tags.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // A configured map source (MAP_STYLE_URL / MAP_TILES_URL) adds its origins; unset, nothing is added.
        imgSrc: ["'self'", 'data:', 'blob:', ...(config.map?.origins ?? [])],
        connectSrc: ["'self'", 'ws:', 'wss:', ...(config.map?.origins ?? [])],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // REDIS_URL: caches' invalidation and every rate limit shared by all processes (plugins/redis.ts, limits.ts).
  await app.register(sharedRedisPlugin);
  await app.register(limitsPlugin);
  await app.register(fastifyRateLimit, {
    global: false,
    ...rateLimitStoreOptions(app),
    errorResponseBuilder: (req, ctx) => {
      const err = Object.assign(new Error('too_many_requests'), { statusCode: ctx.statusCode });
      void req;
      return err;
    },
  });
  await app.register(securityPlugin);
  await app.register(sessionPlugin);
  await app.register(idempotencyPlugin);
  await app.register(cataloguePlugin);
  const mailer = createMailer(config, app.log);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
  // Durable delayed work (the chat's e-mail); modules register handlers below, polling starts once the app is ready.
  await app.register(jobsPlugin);

  // Before the modules: their services broadcast through app.broadcaster.
  await app.register(realtimePlugin);
  // What GET /api/ready checks (modules may add their own parts with app.readiness.add).
  await app.register(readinessPlugin);
  await app.register(systemRoutes);
  // GET /api/openapi.json and the reference at /api/docs.
  await app.register(apiDocsRoutes);
  await app.register(i18nRoutes);
  await app.register(referenceRoutes);
  await app.register(analyticsRoutes);
  // Before the modules whose saving routes call assertNoForbiddenWords (it uses app.forbiddenWords).
  await app.register(forbiddenWordsRoutes);
  await app.register(storagePlugin, { storage, temporary: config.dataDir === ':memory:' });
  await app.register(moderationPlugin);
  await app.register(authLimitsPlugin);
  await app.register(authRoutes);
  await app.register(listingsRoutes);
  await app.register(mediaRoutes);
  await app.register(profilesRoutes);
  await app.register(modelProfilesRoutes);
  await app.register(verificationRoutes);
  await app.register(reportsRoutes);
  await app.register(contactRoutes);
  await app.register(dataRightsRoutes);
  await app.register(publicistsRoutes);
  await app.register(consentRoutes);
  await app.register(statementsRoutes);
  await app.register(adminRoutes);
  await app.register(photoReviewsRoutes);
  await app.register(notificationsRoutes);
  await app.register(pushRoutes);
  await app.register(favouritesRoutes);
  await app.register(savedSearchesRoutes);
  await app.register(adStatsRoutes);
  await app.register(broadcastingRoutes);
  await app.register(supportChatRoutes);

  await app.register(spaPlugin, { distDir: config.distDir });
  return app;
}
