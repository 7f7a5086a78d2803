import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { languageFromAcceptLanguage } from './plugins/i18n.ts';

describe('loadConfig', () => {
  it('serves on 8080 with an embedded database under ./data by default', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.secureCookies).toBe(false);
    expect(c.seedDemo).toBe(true);
  });
  it('takes PORT, DATA_DIR and DATABASE_URL from the environment', () => {
    const c = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://a@localhost/b',
      APP_URL: 'https://vitrina.example',
    });
    expect(c.port).toBe(9000);
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.databaseUrl).toBe('postgres://a@localhost/b');
    expect(c.secureCookies).toBe(true);
  });
  it('never seeds demo data in production unless told to', () => {
    expect(loadConfig({ NODE_ENV: 'production', APP_KEY: 'k'.repeat(32) }).seedDemo).toBe(false);
  });
  it('limits slow clients by default, and refuses a head timeout longer than the whole request', () => {
    const c = loadConfig({});
    expect(c.http).toMatchObject({ headersTimeoutMs: 20_000, requestTimeoutMs: 300_000, bodyTimeoutMs: 20_000, bodyMinRate: 1024 });
    expect(c.http.maxConnectionsPerIp).toBe(256);
    // Behind a proxy every connection comes from the proxy: no per-address cap.
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.maxConnectionsPerIp).toBe(0);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_BODY_MIN_RATE: '-1' })).toThrow(/HTTP_BODY_MIN_RATE/);
  });
  it('keeps the local model 5 minutes after its last check by default; MODERATION_IDLE_MS changes it, 0 for ever', () => {
    expect(loadConfig({}).moderation.idleMs).toBe(300_000);
    expect(loadConfig({ MODERATION_IDLE_MS: '60000' }).moderation.idleMs).toBe(60_000);
    expect(loadConfig({ MODERATION_IDLE_MS: '0' }).moderation.idleMs).toBe(0);
    for (const bad of ['-1', '1.5', 'soon', '86400001'])
      expect(() => loadConfig({ MODERATION_IDLE_MS: bad })).toThrow(/MODERATION_IDLE_MS/);
  });
  it('requires APP_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_KEY/);
  });
  it('refuses the test-only fault hook in production', () => {
    const hook = { VITRINA_FAULT_AFTER_COMMIT: 'PUT /api/profile/model/activate/:id/:value' };
    expect(() => loadConfig({ NODE_ENV: 'production', APP_KEY: 'k'.repeat(32), ...hook })).toThrow(/VITRINA_FAULT_AFTER_COMMIT/);
    expect(loadConfig({ NODE_ENV: 'test', ...hook }).faultAfterCommit).toBe(hook.VITRINA_FAULT_AFTER_COMMIT);
    expect(loadConfig({}).faultAfterCommit).toBeUndefined();
  });
  it('keeps photos on disk by default; STORAGE_DRIVER=s3 names each missing setting and never prints the secret', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'disk' });
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required when STORAGE_DRIVER=s3\n {2}S3_REGION: required/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_REGION: 'x' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'photos', S3_REGION: 'x', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'photos', S3_REGION: 'x', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ STORAGE_DRIVER: 'gcs' })).toThrow(/STORAGE_DRIVER/);

    const secret = 'very-secret-key-0123456789';
    const c = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'vitrina-photos',
      S3_ACCESS_KEY_ID: 'vitrina',
      S3_SECRET_ACCESS_KEY: secret,
    });
    expect(c.storage).toMatchObject({ driver: 's3', endpoint: 'http://minio:9000', bucket: 'vitrina-photos', forcePathStyle: true });
    if (c.storage.driver !== 's3') throw new Error('s3 expected');
    expect(c.storage.credentials!.reveal()).toEqual({ accessKeyId: 'vitrina', secretAccessKey: secret });
    // However the configuration is printed (a log line, a JSON dump, console.log), the secret is not in it.
    expect(JSON.stringify(c)).not.toContain(secret);
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(secret);
    // AWS itself: no endpoint, virtual-host style, the SDK's default credentials.
    const aws = loadConfig({ STORAGE_DRIVER: 's3', S3_REGION: 'eu-west-1', S3_BUCKET: 'vitrina-photos' }).storage;
    expect(aws).toMatchObject({ endpoint: undefined, forcePathStyle: false, credentials: undefined });
  });
  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/DATABASE_URL/);
    }
  });
});

describe('languageFromAcceptLanguage', () => {
  it('picks the best supported language by weight', () => {
    expect(languageFromAcceptLanguage('fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7')).toBe('de');
    expect(languageFromAcceptLanguage('pt-BR')).toBe('pt_BR');
    expect(languageFromAcceptLanguage('en;q=0.5, es;q=0.9')).toBe('es');
    expect(languageFromAcceptLanguage('fr, it')).toBeUndefined();
    expect(languageFromAcceptLanguage(undefined)).toBeUndefined();
  });
});
