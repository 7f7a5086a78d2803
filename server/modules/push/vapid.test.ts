/**
 * Web Push settings (issue 25): the VAPID pair is made once and kept in DATA_DIR (like the Pusher credentials) or taken
 * from the environment, and PUSH_ENDPOINT_ORIGINS only ever adds https origins to the push services' own.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { PUSH_DEFAULT_ORIGINS, endpointAllowed } from '#contract/push.ts';
import { loadConfig } from '#server/config.ts';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-vapid-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('VAPID keys', () => {
  it('are made on the first start, kept in DATA_DIR readable by the owner only, and the same after a restart', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).push.vapid;
    const file = path.join(dir, 'vapid-keys.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // A usable P-256 pair in the form web-push takes.
    expect(() => webpush.setVapidDetails('mailto:a@b.test', first.publicKey, first.privateKey)).not.toThrow();
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    const again = loadConfig({ DATA_DIR: dir }).push.vapid;
    expect(again).toEqual(first);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('vapid-keys'))).toEqual(['vapid-keys.json']);
  });

  it('several processes starting together on one DATA_DIR end with the same pair', async () => {
    const dir = tempDir();
    const script = `import { loadConfig } from './server/config.ts'; console.log(loadConfig({ DATA_DIR: ${JSON.stringify(dir)} }).push.vapid.publicKey);`;
    const start = async () =>
      (await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd() })).stdout.trim();
    const keys = await Promise.all([start(), start(), start(), start()]);
    const kept = JSON.parse(fs.readFileSync(path.join(dir, 'vapid-keys.json'), 'utf8')) as { publicKey: string };
    expect(new Set(keys)).toEqual(new Set([kept.publicKey]));
    // No temporary file left behind by the processes that lost the race.
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('vapid-keys'))).toEqual(['vapid-keys.json']);
  }, 60_000);

  it('come from the environment when both are set (nothing written); one without the other stops the start', () => {
    const dir = tempDir();
    const pair = webpush.generateVAPIDKeys();
    const c = loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });
    expect(c.push.vapid).toMatchObject(pair);
    expect(fs.existsSync(path.join(dir, 'vapid-keys.json'))).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/set both or neither/);
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(/set both or neither/);
  });

  it('name a subject push services can reach: VAPID_SUBJECT, else the https APP_URL, else a mailto:', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir, VAPID_SUBJECT: 'mailto:ops@vitrina.example' }).push.vapid.subject).toBe(
      'mailto:ops@vitrina.example',
    );
    expect(loadConfig({ DATA_DIR: dir, APP_URL: 'https://vitrina.example' }).push.vapid.subject).toBe('https://vitrina.example');
    expect(loadConfig({ DATA_DIR: dir }).push.vapid.subject).toMatch(/^mailto:/);
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_SUBJECT: 'ops@vitrina.example' })).toThrow(/VAPID_SUBJECT/);
  });
});

describe('PUSH_ENDPOINT_ORIGINS', () => {
  it('adds https origins to the push services’ own; anything else stops the start', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).push.endpointOrigins).toEqual([...PUSH_DEFAULT_ORIGINS]);
    const origins = loadConfig({ DATA_DIR: dir, PUSH_ENDPOINT_ORIGINS: ' https://127.0.0.1:8443 , https://*.push.example ' }).push
      .endpointOrigins;
    expect(origins).toEqual([...PUSH_DEFAULT_ORIGINS, 'https://127.0.0.1:8443', 'https://*.push.example']);
    expect(endpointAllowed('https://127.0.0.1:8443/push/1', origins)).toBe(true);
    expect(endpointAllowed('https://127.0.0.1:9443/push/1', origins)).toBe(false);
    expect(endpointAllowed('https://eu.push.example/x', origins)).toBe(true);
    expect(endpointAllowed('https://push.example/x', origins)).toBe(false);
    // Without the setting a loopback endpoint is refused.
    expect(endpointAllowed('https://127.0.0.1:8443/push/1', PUSH_DEFAULT_ORIGINS)).toBe(false);
    for (const bad of ['http://127.0.0.1:8443', 'https://127.0.0.1:8443/path', 'https://user@host.example', '127.0.0.1'])
      expect(() => loadConfig({ DATA_DIR: dir, PUSH_ENDPOINT_ORIGINS: bad }), bad).toThrow(/PUSH_ENDPOINT_ORIGINS/);
  });
});
