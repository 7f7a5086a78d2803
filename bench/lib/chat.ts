/**
 * Chat benchmark (issue 14 point 8): a support-chat message posted over HTTP until it is delivered to the other
 * side's socket. The real app (buildApp, PGlite on disk in a temp folder) listens on loopback; the user holds a raw
 * Pusher-protocol websocket subscribed to `private-support.chat.{id}` through the real POST /broadcasting/auth; staff
 * members post replies with POST /api/support/chat/{id}/messages (session cookie, CSRF token, as the PWA does). Each
 * sample is the time from just before the POST to the `App\Events\MessageSent` frame on the user's socket; the
 * POST's own answer time is reported beside it. Posts are sequential (an unloaded chat), spread over several staff
 * accounts so that the 30-messages-a-minute limit is never what is measured.
 *
 * `npm run bench -- --only chat` runs this part alone; CHAT_BENCH_MESSAGES (default 300) sets the number of samples.
 * The socket client runs in a child process; wall-clock times are compared across the two processes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { API } from '../../contract/routes.ts';
import { buildApp } from '../../server/app.ts';
import { testConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';
import { createDiskStorage } from '../../server/plugins/storage.ts';

const START = '<!-- chat:start -->';
const END = '<!-- chat:end -->';
const STAFF_ACCOUNTS = 15;
const PASSWORD = 'bench chat password 2026';

export interface ChatLatency {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export type ChatReport = {
  date: string;
  machine: string;
  load: [number, number];
} & ({ delivered: ChatLatency; answered: ChatLatency } | { error: string });

const now = () => performance.timeOrigin + performance.now();

function summary(values: number[]): ChatLatency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/** A cookie jar over fetch that sends what the PWA sends: XHR header, CSRF token echoed from its cookie. */
class HttpClient {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  async request(method: string, url: string, body?: unknown, form = false): Promise<{ status: number; json: unknown }> {
    const headers: Record<string, string> = {
      'x-requested-with': 'XMLHttpRequest',
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    }
    const res = await fetch(`${this.origin}${url}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
  }

  async signIn(email: string): Promise<void> {
    await this.request('GET', '/sanctum/csrf-cookie');
    const res = await this.request('POST', '/api/login', { email, password: PASSWORD });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
  }
}

/**
 * A Pusher-protocol websocket client in a child process: it prints its socket id, subscribes when told, and prints
 * `seq wall-clock-ms` for every MessageSent frame (performance.timeOrigin + performance.now(), comparable across
 * processes on one machine).
 */
const CLIENT = `
import WebSocket from 'ws';
import readline from 'node:readline';
const ws = new WebSocket(process.argv[1]);
const now = () => performance.timeOrigin + performance.now();
ws.on('message', (raw) => {
  const f = JSON.parse(raw.toString());
  if (f.event === 'pusher:connection_established') console.log('socket ' + JSON.parse(f.data).socket_id);
  else if (f.event === 'pusher_internal:subscription_succeeded') console.log('subscribed');
  else if (f.event === 'App\\\\Events\\\\MessageSent') console.log('seq ' + JSON.parse(f.data).message.seq + ' ' + now());
});
readline.createInterface({ input: process.stdin }).on('line', (line) => ws.send(line));
`;

class SocketClient {
  private readonly child: ChildProcess;
  private readonly arrivals = new Map<number, number>();
  private readonly waiters = new Map<number, (at: number) => void>();
  private onSubscribed: (() => void) | null = null;
  readonly socketId: Promise<string>;

  constructor(url: string) {
    this.child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, url], {
      cwd: path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let resolveId!: (id: string) => void;
    this.socketId = new Promise((resolve) => (resolveId = resolve));
    let buffer = '';
    this.child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const [kind, a, b] = buffer.slice(0, nl).split(' ');
        buffer = buffer.slice(nl + 1);
        if (kind === 'socket') resolveId(a!);
        else if (kind === 'subscribed') this.onSubscribed?.();
        else if (kind === 'seq') {
          const seq = Number(a);
          const at = Number(b);
          const waiter = this.waiters.get(seq);
          if (waiter) waiter(at);
          else this.arrivals.set(seq, at);
        }
      }
    });
  }

  subscribe(channel: string, auth: object): Promise<void> {
    return new Promise((resolve) => {
      this.onSubscribed = resolve;
      this.child.stdin!.write(`${JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...auth } })}\n`);
    });
  }

  /** When the frame of `seq` arrived (wall clock, ms). */
  receipt(seq: number): Promise<number> {
    const at = this.arrivals.get(seq);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiters.set(seq, resolve));
  }

  close(): void {
    this.child.kill('SIGTERM');
  }
}

export async function benchChat(log: (m: string) => void): Promise<ChatReport> {
  const messages = Number(process.env.CHAT_BENCH_MESSAGES ?? 300);
  const report = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`,
    load: [os.loadavg()[0]!, 0] as [number, number],
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-chat-'));
  const database = await openDatabase({ dataDir: dir });
  let closeClient = () => undefined as unknown;
  try {
    await database.migrate();
    const config = testConfig({ dataDir: dir, databaseUrl: undefined, logLevel: 'warn', appUrl: 'http://127.0.0.1' });
    const app = await buildApp(config, database, createDiskStorage(dir));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const origin = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
      const hash = await hashPassword(PASSWORD);
      const make = (role: 'model' | 'admin', i: number) => ({
        name: `${role} ${i}`,
        email: `bench-${role}-${i}-${crypto.randomBytes(3).toString('hex')}@vitrina.test`,
        passwordHash: hash,
        role,
        status: 'active' as const,
        emailVerifiedAt: new Date(),
      });
      const [model] = await app.db.insert(users).values(make('model', 0)).returning();
      const staffRows = await app.db
        .insert(users)
        .values(Array.from({ length: STAFF_ACCOUNTS }, (_, i) => make('admin', i)))
        .returning();
      const user = new HttpClient(origin);
      await user.signIn(model!.email);
      const staff = await Promise.all(
        staffRows.map(async (s) => {
          const c = new HttpClient(origin);
          await c.signIn(s.email);
          return c;
        }),
      );
      const opened = await user.request('POST', API.supportConversations, {});
      const conversationId = (opened.json as { data: { id: number } }).data.id;

      // The user's socket, in a process of its own (PGlite runs on the server's event loop: a client sharing it would
      // read its frames only once each request is over), authorized through the real /broadcasting/auth.
      const client = new SocketClient(`${origin.replace('http', 'ws')}/app/${config.realtime.key}?protocol=7&client=js&version=8.6.0`);
      closeClient = () => client.close();
      const socketId = await client.socketId;
      const channel = `private-support.chat.${conversationId}`;
      const auth = await user.request('POST', API.broadcastingAuth, { socket_id: socketId, channel_name: channel }, true);
      if (auth.status !== 200) throw new Error(`broadcasting auth: ${auth.status}`);
      await client.subscribe(channel, auth.json as object);

      log(`chat: ${messages} staff replies → the user's socket`);
      const delivered: number[] = [];
      const answered: number[] = [];
      for (let i = 0; i < messages + 20; i++) {
        const seq = i + 1;
        const arrived = client.receipt(seq);
        const started = now();
        const res = await staff[i % STAFF_ACCOUNTS]!.request('POST', API.supportMessages(conversationId), { content: `Respuesta ${seq}` });
        const answeredAt = now();
        if (res.status !== 201) throw new Error(`post ${seq}: ${res.status} ${JSON.stringify(res.json)}`);
        const receivedAt = await arrived;
        // The first 20 warm up (JIT, caches) and are not counted.
        if (i >= 20) {
          delivered.push(receivedAt - started);
          answered.push(answeredAt - started);
        }
      }
      report.load[1] = os.loadavg()[0]!;
      return { ...report, delivered: summary(delivered), answered: summary(answered) };
    } finally {
      closeClient();
      await app.close();
    }
  } catch (err) {
    report.load[1] = os.loadavg()[0]!;
    return { ...report, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await database.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export function renderChatSection(r: ChatReport): string {
  const body =
    'error' in r
      ? [`Not measured: ${r.error}.`]
      : [
          `| | samples | p50 | p95 | p99 | max |`,
          '| --- | --- | --- | --- | --- | --- |',
          `| post → delivered to the user's socket | ${r.delivered.samples} | ${ms(r.delivered.p50)} | **${ms(r.delivered.p95)}** | ${ms(r.delivered.p99)} | ${ms(r.delivered.max)} |`,
          `| post → HTTP answer (201) | ${r.answered.samples} | ${ms(r.answered.p50)} | ${ms(r.answered.p95)} | ${ms(r.answered.p99)} | ${ms(r.answered.max)} |`,
        ];
  return [
    START,
    '## Support chat: message post → delivered',
    '',
    `Measured ${r.date} on ${r.machine} by \`npm run bench -- --only chat\` (bench/lib/chat.ts): the real app on loopback (PGlite on disk), a staff member's \`POST /api/support/chat/{id}/messages\` (session, CSRF) until \`App\\Events\\MessageSent\` reaches the user's websocket, subscribed through the real \`POST /broadcasting/auth\`. Sequential posts (an unloaded chat), the first 20 not counted. Each message is one transaction (seq under the conversation's lock, the read marks, the e-mail job), then the broadcasts, then the answer.`,
    '',
    ...body,
    '',
    `The user's socket is in a child process; load average (1 min) ${r.load[0].toFixed(1)} at the start and ${r.load[1].toFixed(1)} at the end (other work on the machine delays deliveries).`,
    END,
  ].join('\n');
}

export function spliceChatSection(markdown: string, section: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + END.length);
  // After the websocket server's section when there is one, else before the notes.
  const realtimeEnd = markdown.indexOf('<!-- realtime:end -->');
  if (realtimeEnd >= 0) {
    const at = realtimeEnd + '<!-- realtime:end -->'.length;
    return `${markdown.slice(0, at)}\n\n${section}${markdown.slice(at)}`;
  }
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}
