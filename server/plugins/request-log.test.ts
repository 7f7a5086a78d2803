/**
 * What `npm start` prints, read from the real server process: one line per request (not Fastify's two), JSON in
 * production, readable lines in development, and a start-up line that names the address to open (APP_URL's).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requestLine, startupLine } from './request-log.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts `tsx server/main.ts`, asks for `paths` once it is ready, stops it, and returns what it printed. */
async function run(env: Record<string, string>, paths: string[]): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-log-'));
  dirs.push(dataDir);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
      APP_KEY: 'k'.repeat(40),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  // Node's own warnings go to stderr; the log is stdout.
  child.stderr.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await expect.poll(() => /Vitrina is ready/.test(out), { timeout: 150_000, interval: 200 }).toBe(true);
    for (const p of paths) expect((await fetch(`http://127.0.0.1:${port}${p}`)).status).toBeLessThan(500);
    // The request line is written once the answer has gone out, through the logger's own stream.
    await expect.poll(() => paths.every((p) => out.includes(p)), { timeout: 10_000, interval: 100 }).toBe(true);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out.split('\n').filter((line) => line.trim() !== '');
}

describe('server log', () => {
  it('says a request as "METHOD path status time"', () => {
    expect(requestLine('GET', '/api/models?page=2', 200, 12.4)).toBe('GET /api/models?page=2 200 12 ms');
  });

  it('names the APP_URL origin as the address to open', () => {
    const line = startupLine({ appUrl: 'https://vitrina.example/some/path' }, 'pglite', 'http://0.0.0.0:8080');
    expect(line).toContain('open https://vitrina.example ');
    expect(line).toContain('listening on http://0.0.0.0:8080');
  });

  it('in production: JSON, one line per request, the start-up line names APP_URL', { timeout: 180_000 }, async () => {
    const lines = await run({ NODE_ENV: 'production' }, ['/api/health']);
    const entries = lines.map(
      (line) =>
        JSON.parse(line) as { level: number; msg: string; reqId?: string; url?: string; req?: { url?: string }; statusCode?: number },
    );
    // Every line a request writes carries its reqId: one request, one line.
    const reqId = entries.find((e) => (e.url ?? e.req?.url) === '/api/health')?.reqId;
    expect(reqId).toBeDefined();
    const health = entries.filter((e) => e.reqId === reqId);
    expect(health).toHaveLength(1);
    expect(health[0]).toMatchObject({ level: 30, url: '/api/health', statusCode: 200 });
    expect(health[0]!.msg).toMatch(/^GET \/api\/health 200 \d+ ms$/);
    const ready = entries.find((e) => e.msg.startsWith('Vitrina is ready'))!;
    expect(ready.msg).toMatch(/open http:\/\/localhost:\d+ /);
  });

  it('in development: readable lines, not JSON, one per request', { timeout: 180_000 }, async () => {
    // On every interface, as `npm start` listens by default: Fastify names each interface's address in turn.
    const lines = await run({ NODE_ENV: 'development', HOST: '0.0.0.0' }, ['/api/health']);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    const requests = lines.filter((line) => line.includes('/api/health'));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/health 200 \d+ ms$/);
    expect(lines.some((line) => /INFO: Vitrina is ready: open http:\/\/localhost:\d+ /.test(line))).toBe(true);
    // The one start-up line: Fastify's own "Server listening at http://127.0.0.1:…" would name another origin, and
    // it was printed once per network interface (issue 24 D: "ready" twice, the second with the machine's address).
    expect(lines.filter((line) => line.includes('listening'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('Vitrina is ready'))).toHaveLength(1);
    expect(lines.find((line) => line.includes('Vitrina is ready'))).toMatch(/listening on port \d+ of every interface/);
    // Without SMTP_URL one line says where mail goes.
    expect(lines.filter((line) => line.includes('SMTP_URL is not set'))).toHaveLength(1);
  });
});
