/**
 * Realtime configuration: `npm start` needs no Pusher credentials (made once, kept in DATA_DIR, the same on the next
 * start); the `pusher` driver refuses to start without its server and app; the browser is told the key only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-rt-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('realtime configuration', () => {
  it('generates the Pusher app on first start, keeps it in DATA_DIR (owner-only) and reads it back', () => {
    const first = loadConfig({ DATA_DIR: dir }).realtime;
    expect(first).toMatchObject({ driver: 'embedded', redisUrl: undefined, redisPrefix: 'vitrina:', activityTimeoutSec: 120 });
    expect(first.appId).toMatch(/^\d+$/);
    expect(first.key).toMatch(/^[0-9a-f]{20}$/);
    expect(first.secret).toMatch(/^[0-9a-f]{40}$/);
    const file = path.join(dir, 'pusher-credentials.json');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    const again = loadConfig({ DATA_DIR: dir }).realtime;
    expect([again.appId, again.key, again.secret]).toEqual([first.appId, first.key, first.secret]);
  });

  it('takes the credentials, Redis and the activity timeout from the environment', () => {
    const r = loadConfig({
      DATA_DIR: ':memory:',
      PUSHER_APP_ID: '7',
      PUSHER_APP_KEY: 'k',
      PUSHER_APP_SECRET: 's',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: 'shop1:',
      PUSHER_ACTIVITY_TIMEOUT: '30',
    }).realtime;
    expect(r).toMatchObject({ appId: '7', key: 'k', secret: 's', redisUrl: 'redis://127.0.0.1:6379', redisPrefix: 'shop1:' });
    expect(r.activityTimeoutSec).toBe(30);
  });

  it('the pusher driver needs its app and server; the port follows the scheme', () => {
    expect(() => loadConfig({ DATA_DIR: ':memory:', BROADCAST_DRIVER: 'pusher' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: ':memory:', BROADCAST_DRIVER: 'pusher' })).toThrow(/PUSHER_HOST: required/);
    const r = loadConfig({
      DATA_DIR: ':memory:',
      BROADCAST_DRIVER: 'pusher',
      PUSHER_APP_ID: '1',
      PUSHER_APP_KEY: 'k',
      PUSHER_APP_SECRET: 's',
      PUSHER_HOST: 'soketi.internal',
      PUSHER_SCHEME: 'https',
    }).realtime;
    expect(r).toMatchObject({ driver: 'pusher', host: 'soketi.internal', port: 443, scheme: 'https' });
  });

  it('refuses a bad driver, Redis URL or port with a message naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: ':memory:', BROADCAST_DRIVER: 'reverb' })).toThrow(/BROADCAST_DRIVER/);
    expect(() => loadConfig({ DATA_DIR: ':memory:', REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATA_DIR: ':memory:', PUSHER_PORT: '70000' })).toThrow(/PUSHER_PORT/);
  });
});
