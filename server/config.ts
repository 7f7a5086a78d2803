/**
 * Configuration from environment variables, validated once at start-up. Every variable is documented in
 * README.md; a bad value stops the server with a message naming it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import webpush from 'web-push';
import { PUSH_DEFAULT_ORIGINS } from '#contract/push.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(v)));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  APP_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool,
  SEED_DEMO: bool,
  DIST_DIR: z.string().min(1).default('./dist'),
  APP_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Vitrina <no-reply@vitrina.test>'),
  /** How often each process looks for due jobs (mail, purges); 0 = never by itself (server tests drive it). */
  JOBS_POLL_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** How often the advertisers' numbers are written (ms); 0 = only on close or when asked. */
  AD_STATS_FLUSH_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  DEMO_ADS: z.coerce.number().int().min(0).max(5000).default(220),
  REGISTER_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  MAX_ADS_PER_MODEL: z.coerce.number().int().min(1).max(100).default(3),
  MAX_MODELS_PER_PUBLICIST: z.coerce.number().int().min(1).max(10_000).default(200),
  VERIFY_CODES_PER_HOUR: z.coerce.number().int().min(1).max(100).default(5),
  LISTINGS_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  LISTING_CARDS_CACHED: z.coerce.number().int().min(0).max(1_000_000).default(20_000),
  FORBIDDEN_WORDS_FILE: optionalString,
  VITRINA_FAULT_AFTER_COMMIT: optionalString,
  VITRINA_TEST_REFUSE_MAGENTA: z.enum(['0', '1']).default('0'),
  DEMO_PASSWORD: z
    .string()
    .min(8, 'must be at least 8 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024)
    .default(15 * 1024 * 1024),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(10_000).max(500_000_000).default(40_000_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(20_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  HTTP_BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  HTTP_BODY_MIN_RATE: z.coerce.number().int().min(0).max(100_000_000).default(1024),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(72_000),
  HTTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(256),
  MODERATION_PROVIDER: z.enum(['local', 'sightengine']).default('local'),
  MODERATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** How long the local model stays loaded without a check (ms); 0 = for the life of the process. At most a day. */
  MODERATION_IDLE_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  SIGHTENGINE_USER: optionalString,
  SIGHTENGINE_SECRET: optionalString,
  SIGHTENGINE_WORKFLOW: optionalString,
  BROADCAST_DRIVER: z.enum(['embedded', 'pusher']).default('embedded'),
  PUSHER_APP_ID: optionalString,
  PUSHER_APP_KEY: optionalString,
  PUSHER_APP_SECRET: optionalString,
  PUSHER_HOST: optionalString,
  PUSHER_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUSHER_SCHEME: z
    .enum(['http', 'https'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUSHER_ACTIVITY_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(120),
  PUSHER_MAX_CHANNELS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(100),
  PUSHER_MAX_CHANNELS: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  // Web Push (issue 25): more push services' origins (comma-separated `https://host[:port]` or `https://*.domain`), and
  // the VAPID keys (both or neither; without them a pair is made once and kept in DATA_DIR).
  PUSH_ENDPOINT_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const o of list)
        if (!/^https:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(o)) ctx.addIssue({ code: 'custom', message: `not an https origin: ${o}` });
      return list;
    }),
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_PREFIX: z.string().max(64).default('vitrina:'),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Photo storage: DATA_DIR/media, or an S3-compatible bucket (see s3Config below).
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_REGION: optionalString,
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lowercase letters, digits, dots, hyphens)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool,
  // Maps (issue 16): unset, the embedded base map only and no third-party request; see mapConfig below.
  MAP_STYLE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL of a MapLibre style (JSON)' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAP_TILES_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/\S*$/, 'must be an http(s) URL')
    .refine((v) => ['{z}', '{x}', '{y}'].every((p) => v.includes(p)), 'must contain {z}, {x} and {y}')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAP_ATTRIBUTION: z.string().trim().max(300).optional(),
  MAP_ORIGINS: optionalString,
  SIGHTENGINE_URL: z
    .url()
    .default('https://api.sightengine.com/1.0/check-workflow.json')
    .or(z.literal('').transform(() => 'https://api.sightengine.com/1.0/check-workflow.json')),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  /** Web Push: the origins a subscription may name (contract/push.ts defaults + PUSH_ENDPOINT_ORIGINS) and the VAPID keys. */
  push: { endpointOrigins: string[]; vapid: { publicKey: string; privateKey: string; subject: string } };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  seedDemo: boolean;
  distDir: string;
  /** Secure cookies only when the public URL is HTTPS. */
  secureCookies: boolean;
  /** Secret for signed links (verification e-mails). */
  appKey: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Job runner poll interval in ms (0: no polling, server tests call app.jobs.runDue). */
  jobsPollMs: number;
  /**
   * How often counted ad views are written (modules/ad-stats/ad-counter.ts); 0: only on close or when asked (server
   * tests: nothing is written behind a test's back, and the fuzz suite fingerprints the database between requests).
   */
  adStatsFlushMs: number;
  demoPassword: string | undefined;
  /** Size of the demo catalogue seeded on a fresh database (outside production). */
  demoAds: number;
  /** Registrations allowed per IP and hour. */
  registerLimitPerHour: number;
  /**
   * Tests only: `METHOD /route/:pattern` (comma-separated) whose request with an Idempotency-Key kills the process
   * once its change and answer are committed, before the answer leaves (plugins/idempotency.ts). Refused in production.
   */
  faultAfterCommit: string | undefined;
  /** Ads one model profile may have: every ad is re-derived when the model is renamed, so this bounds that work. */
  maxAdsPerModel: number;
  /** Models one publicist may manage (agencies not yet approved: UNAPPROVED_AGENCY_MODEL_LIMIT, lower). */
  maxModelsPerPublicist: number;
  /** Verification codes a model may ask for per hour. */
  verificationCodesPerHour: number;
  /** How long GET /api/models answers are micro-cached in memory; 0 turns the cache off (benchmarks). */
  listingsCacheTtlMs: number;
  /** How many serialized listing cards each process keeps (listings/card-cache.ts); 0: none. */
  listingCardsCached: number;
  /** An extra forbidden-words list (JSON, format in server/modules/forbidden-words/README.md) on top of the built-in ones. */
  forbiddenWordsFile: string | undefined;
  /** Largest photo file accepted, in bytes. */
  uploadMaxBytes: number;
  /** Largest photo accepted, in pixels (width × height): pixel-flood protection. */
  uploadMaxPixels: number;
  /** Timeouts and limits against slow clients (plugins/slow-clients.ts). */
  http: HttpLimits;
  moderation: ModerationConfig;
  realtime: RealtimeConfig;
  /** A production map source for the browser (GET /api/config `map`); undefined: the embedded base map only. */
  map: MapSourceConfig | undefined;
  /** Prometheus metrics (plugins/metrics.ts): GET /metrics with the token, or on a port of its own; neither → 404. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Where photos and selfies are kept (plugins/storage.ts). */
  storage: StorageConfig;
};

export type StorageConfig = { driver: 'disk' } | S3StorageConfig;

/** STORAGE_DRIVER=s3: a private bucket; every file is still served through GET /media/* (plugins/storage-s3.ts). */
export interface S3StorageConfig {
  driver: 's3';
  /** Unset: AWS itself (the region's endpoint). */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Path-style URLs (endpoint/bucket/key), which most self-hosted servers need; default: on with S3_ENDPOINT. */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (AWS_* variables, an instance or task role). */
  credentials: S3Credentials | undefined;
}

/** A key pair kept out of logs and JSON (the config object may be printed): only reveal() gives the secret. */
export class S3Credentials {
  readonly #secretAccessKey: string;
  constructor(
    readonly accessKeyId: string,
    secretAccessKey: string,
  ) {
    this.#secretAccessKey = secretAccessKey;
  }
  reveal(): { accessKeyId: string; secretAccessKey: string } {
    return { accessKeyId: this.accessKeyId, secretAccessKey: this.#secretAccessKey };
  }
  toJSON(): { accessKeyId: string; secretAccessKey: string } {
    return { accessKeyId: this.accessKeyId, secretAccessKey: '[redacted]' };
  }
}

/**
 * Realtime (server/realtime): who delivers broadcasts, the Pusher app credentials, and the Redis that several
 * processes share. Credentials left unset are generated once and kept in DATA_DIR (embedded driver only).
 */
export interface RealtimeConfig {
  driver: 'embedded' | 'pusher';
  appId: string;
  key: string;
  secret: string;
  /** The `pusher` driver's server (and what the browser connects to then); unset with the embedded driver. */
  host: string | undefined;
  port: number | undefined;
  scheme: 'http' | 'https';
  /** Seconds of silence after which a client pings (sent in connection_established); the server closes with 4201. */
  activityTimeoutSec: number;
  /** How long the server waits for any sign of life after its own ping (ms). */
  pongTimeoutMs: number;
  /** Channels one websocket may be subscribed to at once; past it subscriptions are refused (subscription_error). */
  maxChannelsPerConnection: number;
  /** Distinct channels one process holds subscribers for (memory bound); new channels past it are refused. */
  maxChannels: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and pub/sub channel (several apps may share one Redis). */
  redisPrefix: string;
}

/**
 * Who screens photos (SPEC §5). `local`: nsfwjs in a worker thread; `sightengine`: the workflow API; `stub`: a
 * deterministic stand-in that finds every photo suitable — tests only, never selectable from the environment.
 */
export interface ModerationConfig {
  provider: 'local' | 'sightengine' | 'stub';
  /** How long one check may take before it counts as failed (the photo is then refused). */
  timeoutMs: number;
  /**
   * The local model: how long its worker stays without a check before it is ended and its memory returned (the next
   * check loads it again); 0 keeps it for the life of the process, loaded at start-up in production. Absent (configs
   * made by hand in tests): 5 minutes.
   */
  idleMs?: number;
  sightengine: { user: string; secret: string; workflow: string; url: string } | undefined;
  /**
   * Test hook (VITRINA_TEST_REFUSE_MAGENTA=1, refused in production): a photo that is plain magenta is scored as
   * erotica 0.99, so end-to-end tests can act out a refusal whatever the model. It can only refuse more, never less.
   */
  testRefuseMagenta?: boolean;
}

/** How long a connection may take over what, so that slow clients cannot hold sockets (plugins/slow-clients.ts). */
export interface HttpLimits {
  /** A request's head (request line and headers) must arrive within this. */
  headersTimeoutMs: number;
  /** A whole request, body included, must arrive within this (a 15 MB photo at 1 Mbit/s takes about two minutes). */
  requestTimeoutMs: number;
  /** Each this long spent waiting for a body must bring bodyMinRate bytes a second… */
  bodyTimeoutMs: number;
  /** …or the connection is closed (0: at least a byte). */
  bodyMinRate: number;
  /** A socket with no traffic either way for this long is closed (a client that stops reading its answer). */
  idleTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (longer than the usual proxies' 60 s, so they close first). */
  keepAliveTimeoutMs: number;
  /** Connections one IP address may hold at once (0: no cap). Not applied behind TRUST_PROXY: the proxy is one address. */
  maxConnectionsPerIp: number;
}

/** MAP_STYLE_URL (a MapLibre vector style) or MAP_TILES_URL (raster tiles), and what the CSP must let the browser reach. */
export interface MapSourceConfig {
  styleUrl: string | undefined;
  tilesUrl: string | undefined;
  attribution: string | undefined;
  /** Origins the browser fetches the map from (the style's or tiles' own, and MAP_ORIGINS): CSP img-src / connect-src. */
  origins: string[];
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const appUrl = e.APP_URL ?? `http://localhost:${e.PORT}`;
  if (!e.APP_KEY && e.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration:\n  APP_KEY: required in production (32+ random characters)');
  if (e.VITRINA_FAULT_AFTER_COMMIT && e.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration:\n  VITRINA_FAULT_AFTER_COMMIT: a test hook, refused in production');
  if (e.VITRINA_TEST_REFUSE_MAGENTA === '1' && e.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration:\n  VITRINA_TEST_REFUSE_MAGENTA: a test hook, refused in production');
  const dataDir = e.DATA_DIR === ':memory:' ? ':memory:' : path.resolve(e.DATA_DIR);
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS)
    throw new ConfigError('Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT (the metrics listener is a separate one)');
  if (e.BROADCAST_DRIVER === 'pusher') {
    const absent = (['PUSHER_APP_ID', 'PUSHER_APP_KEY', 'PUSHER_APP_SECRET', 'PUSHER_HOST'] as const).filter((k) => !e[k]);
    if (absent.length)
      throw new ConfigError(`Invalid configuration:\n${absent.map((k) => `  ${k}: required when BROADCAST_DRIVER=pusher`).join('\n')}`);
  }
  const missing = (['SIGHTENGINE_USER', 'SIGHTENGINE_SECRET', 'SIGHTENGINE_WORKFLOW'] as const).filter((k) => !e[k]);
  if (e.MODERATION_PROVIDER === 'sightengine' && missing.length)
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((k) => `  ${k}: required when MODERATION_PROVIDER=sightengine`).join('\n')}`,
    );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appUrl,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY ?? false,
    seedDemo: e.SEED_DEMO ?? e.NODE_ENV !== 'production',
    distDir: path.resolve(e.DIST_DIR),
    secureCookies: appUrl.startsWith('https://'),
    appKey: e.APP_KEY ?? localAppKey(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    // A queued mail leaves within a second in development and e2e; 5 s between polls of every node in production.
    jobsPollMs: e.JOBS_POLL_MS ?? (e.NODE_ENV === 'production' ? 5_000 : 1_000),
    adStatsFlushMs: e.AD_STATS_FLUSH_MS,
    demoPassword: e.DEMO_PASSWORD,
    registerLimitPerHour: e.REGISTER_LIMIT_PER_HOUR,
    faultAfterCommit: e.VITRINA_FAULT_AFTER_COMMIT,
    maxAdsPerModel: e.MAX_ADS_PER_MODEL,
    maxModelsPerPublicist: e.MAX_MODELS_PER_PUBLICIST,
    verificationCodesPerHour: e.VERIFY_CODES_PER_HOUR,
    demoAds: e.DEMO_ADS,
    listingsCacheTtlMs: e.LISTINGS_CACHE_TTL_MS,
    listingCardsCached: e.LISTING_CARDS_CACHED,
    forbiddenWordsFile: e.FORBIDDEN_WORDS_FILE ? path.resolve(e.FORBIDDEN_WORDS_FILE) : undefined,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadMaxPixels: e.UPLOAD_MAX_PIXELS,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      bodyTimeoutMs: e.HTTP_BODY_TIMEOUT_MS,
      bodyMinRate: e.HTTP_BODY_MIN_RATE,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerIp: e.TRUST_PROXY ? 0 : e.HTTP_MAX_CONNECTIONS_PER_IP,
    },
    moderation: {
      provider: e.MODERATION_PROVIDER,
      timeoutMs: e.MODERATION_TIMEOUT_MS,
      idleMs: e.MODERATION_IDLE_MS,
      testRefuseMagenta: e.VITRINA_TEST_REFUSE_MAGENTA === '1',
      sightengine:
        e.SIGHTENGINE_USER && e.SIGHTENGINE_SECRET && e.SIGHTENGINE_WORKFLOW
          ? { user: e.SIGHTENGINE_USER, secret: e.SIGHTENGINE_SECRET, workflow: e.SIGHTENGINE_WORKFLOW, url: e.SIGHTENGINE_URL }
          : undefined,
    },
    realtime: realtimeConfig(e, dataDir),
    push: {
      endpointOrigins: [...PUSH_DEFAULT_ORIGINS, ...e.PUSH_ENDPOINT_ORIGINS],
      vapid: vapidConfig(e, dataDir, appUrl),
    },
    map: mapConfig(e),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    storage: storageConfig(e),
  };
}

function storageConfig(e: z.infer<typeof envSchema>): StorageConfig {
  if (e.STORAGE_DRIVER === 'disk') return { driver: 'disk' };
  const problems = (['S3_BUCKET', 'S3_REGION'] as const).filter((k) => !e[k]).map((k) => `  ${k}: required when STORAGE_DRIVER=s3`);
  if (!!e.S3_ACCESS_KEY_ID !== !!e.S3_SECRET_ACCESS_KEY)
    problems.push(
      `  ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset for the AWS default credentials)`,
    );
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    driver: 's3',
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION!,
    bucket: e.S3_BUCKET!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? !!e.S3_ENDPOINT,
    credentials: e.S3_ACCESS_KEY_ID ? new S3Credentials(e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY!) : undefined,
  };
}

/**
 * The origin of a URL or tile template; a `{s}` subdomain (a.tile…, b.tile…) becomes a CSP wildcard (*.tile…).
 * MAP_ORIGINS adds the hosts a style's tiles, glyphs and sprites come from when they are not the style's own.
 */
function mapConfig(e: z.infer<typeof envSchema>): MapSourceConfig | undefined {
  if (!e.MAP_STYLE_URL && !e.MAP_TILES_URL) {
    if (e.MAP_ORIGINS || e.MAP_ATTRIBUTION)
      throw new ConfigError('Invalid configuration:\n  MAP_ORIGINS / MAP_ATTRIBUTION: need MAP_STYLE_URL or MAP_TILES_URL');
    return undefined;
  }
  const originOf = (url: string) => {
    const m = /^(https?:\/\/[^/]+)/.exec(url.replace('{s}.', 'SUBDOMAIN.'));
    return m ? m[1]!.replace('SUBDOMAIN.', '*.') : undefined;
  };
  const extra = (e.MAP_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of extra)
    if (!/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(o))
      throw new ConfigError(`Invalid configuration:\n  MAP_ORIGINS: ${JSON.stringify(o)} is not an origin (https://host[:port])`);
  const origins = [e.MAP_STYLE_URL, e.MAP_TILES_URL].map((u) => (u ? originOf(u) : undefined)).filter((o): o is string => !!o);
  return {
    styleUrl: e.MAP_STYLE_URL,
    tilesUrl: e.MAP_TILES_URL,
    attribution: e.MAP_ATTRIBUTION || undefined,
    origins: [...new Set([...origins, ...extra])],
  };
}

function realtimeConfig(e: z.infer<typeof envSchema>, dataDir: string): RealtimeConfig {
  const stored = e.PUSHER_APP_ID && e.PUSHER_APP_KEY && e.PUSHER_APP_SECRET ? undefined : localPusherCredentials(dataDir);
  const scheme = e.PUSHER_SCHEME ?? 'http';
  return {
    driver: e.BROADCAST_DRIVER,
    appId: e.PUSHER_APP_ID ?? stored!.app_id,
    key: e.PUSHER_APP_KEY ?? stored!.key,
    secret: e.PUSHER_APP_SECRET ?? stored!.secret,
    host: e.PUSHER_HOST,
    port: e.PUSHER_PORT ?? (e.PUSHER_HOST ? (scheme === 'https' ? 443 : 80) : undefined),
    scheme,
    activityTimeoutSec: e.PUSHER_ACTIVITY_TIMEOUT,
    pongTimeoutMs: 30_000,
    maxChannelsPerConnection: e.PUSHER_MAX_CHANNELS_PER_CONNECTION,
    maxChannels: e.PUSHER_MAX_CHANNELS,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
  };
}

function vapidConfig(e: z.infer<typeof envSchema>, dataDir: string, appUrl: string): Config['push']['vapid'] {
  if (!!e.VAPID_PUBLIC_KEY !== !!e.VAPID_PRIVATE_KEY)
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither');
  const keys =
    e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
      ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
      : localVapidKeys(dataDir);
  // Push services contact this address about a sender that misbehaves; an https URL of the site is accepted too.
  const subject = e.VAPID_SUBJECT ?? (appUrl.startsWith('https://') ? appUrl : 'mailto:admin@vitrina.test');
  return { ...keys, subject };
}

/**
 * Like the Pusher credentials: made once and kept in DATA_DIR. Written to a temporary file and linked into place, so
 * processes starting together on one DATA_DIR end with the same pair (the first link wins; the others read it).
 */
function localVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  if (dataDir === ':memory:') return webpush.generateVAPIDKeys();
  const file = path.join(dataDir, 'vapid-keys.json');
  const read = () => {
    const k = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    return typeof k.publicKey === 'string' && typeof k.privateKey === 'string'
      ? { publicKey: k.publicKey, privateKey: k.privateKey }
      : null;
  };
  try {
    const found = read();
    if (found) return found;
  } catch {
    // Missing: made below.
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const made = webpush.generateVAPIDKeys();
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, JSON.stringify(made), { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return made;
  } catch {
    return read() ?? made;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Like localAppKey: `npm start` needs no Pusher credentials; they are made once and kept in DATA_DIR. */
function localPusherCredentials(dataDir: string): { app_id: string; key: string; secret: string } {
  const fresh = () => ({
    app_id: String(crypto.randomInt(100_000, 1_000_000)),
    key: crypto.randomBytes(10).toString('hex'),
    secret: crypto.randomBytes(20).toString('hex'),
  });
  if (dataDir === ':memory:') return fresh();
  const file = path.join(dataDir, 'pusher-credentials.json');
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as { app_id?: unknown; key?: unknown; secret?: unknown };
    if (typeof read.app_id === 'string' && typeof read.key === 'string' && typeof read.secret === 'string')
      return { app_id: read.app_id, key: read.key, secret: read.secret };
  } catch {
    // Missing or unreadable: made anew below.
  }
  const made = fresh();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(made), { mode: 0o600 });
  return made;
}

/**
 * Outside production a missing APP_KEY is generated once and kept in DATA_DIR, so signed links survive
 * restarts of `npm start` without any setup.
 */
function localAppKey(dataDir: string): string {
  if (dataDir === ':memory:') return crypto.randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'app-key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const key = crypto.randomBytes(32).toString('hex');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, key, { mode: 0o600 });
    return key;
  }
}

/**
 * Configuration for tests: in-memory database unless DATABASE_URL says otherwise, quiet logs, and the stub
 * moderation provider (tests of moderation itself choose the local model or a Sightengine stand-in).
 */
/** Fixed in tests so helpers can sign what the app signs (CSRF tokens). */
export const TEST_APP_KEY = 'test-app-key-0123456789abcdef0123456789abcdef';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    DATABASE_URL: process.env.DATABASE_URL,
    DEMO_PASSWORD: 'demo-password-123',
    REGISTER_LIMIT_PER_HOUR: '1000',
    DEMO_ADS: '0',
    APP_KEY: TEST_APP_KEY,
  });
  return { ...base, moderation: { ...base.moderation, provider: 'stub' }, jobsPollMs: 0, adStatsFlushMs: 0, ...overrides };
}
