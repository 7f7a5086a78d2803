/**
 * The real `npm start` process for tests that stop, kill and restart it (server/lifecycle.test.ts) or run two of
 * them side by side (server/two-nodes.test.ts): `tsx server/main.ts` on a loopback port with its own DATA_DIR
 * (PGlite) or a server database URL, and a browser-like HTTP client that keeps cookies and echoes the XSRF token.
 * Same start-up as the crash test of issue 15 (server/plugins/idempotency.crash.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

export interface ServerProcessOptions {
  port: number;
  dataDir: string;
  databaseUrl?: string | undefined;
  password: string;
  env?: Record<string, string>;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  log(): string;
}

/** The key, id and secret of the embedded websocket server (fixed, so a test can open a socket). */
export const PUSHER = { id: 'lifecycle', key: 'lifecycle-key', secret: 'lifecycle-secret' } as const;

/** Starts the server; resolves once /api/health answers. */
export async function startServer(opts: ServerProcessOptions): Promise<ServerProcess> {
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      APP_URL: `http://localhost:${opts.port}`,
      DATA_DIR: opts.dataDir,
      DATABASE_URL: opts.databaseUrl ?? '',
      SEED_DEMO: 'true',
      DEMO_ADS: '0',
      DEMO_PASSWORD: opts.password,
      APP_KEY: 'lifecycle-test-key-'.padEnd(40, 'k'),
      PUSHER_APP_ID: PUSHER.id,
      PUSHER_APP_KEY: PUSHER.key,
      PUSHER_APP_SECRET: PUSHER.secret,
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (log += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (log += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server/main.ts exited early:\n${log}`);
        return fetch(`http://127.0.0.1:${opts.port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 150_000, interval: 100 },
    )
    .toBe(true);
  return { child, exited, log: () => log };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A browser-like client over real HTTP: keeps cookies, sends the XHR header and echoes the XSRF token. */
export class HttpClient {
  readonly cookies = new Map<string, string>();
  constructor(public port: number) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const xsrf = this.cookies.get('XSRF-TOKEN');
    return {
      'x-requested-with': 'XMLHttpRequest',
      ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...extra,
    };
  }

  async call(method: string, url: string, json?: unknown): Promise<Answer> {
    return json === undefined ? this.send(method, url) : this.send(method, url, JSON.stringify(json), 'application/json');
  }

  /** A request with a body of any type (form-encoded, multipart), the session and CSRF headers as `call` sends them. */
  async send(method: string, url: string, body?: string | Buffer, contentType?: string): Promise<Answer> {
    const res = await fetch(`http://127.0.0.1:${this.port}${url}`, {
      method,
      headers: this.headers(contentType ? { 'content-type': contentType } : {}),
      // A copy in a plain ArrayBuffer: what fetch's types take (a Buffer may sit on a shared one).
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : Uint8Array.from(body) }),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Signs in (CSRF cookie first, as the PWA does). */
  async login(email: string, password: string): Promise<void> {
    await this.call('GET', '/sanctum/csrf-cookie');
    const login = await this.call('POST', '/api/login', { email, password });
    expect(login.status, login.text).toBe(200);
  }
}
