/**
 * Realtime benchmarks (issue 14 point 8), each against real `server/main.ts` processes (PGlite, no demo data) with
 * the websocket clients in a separate child process, so that the memory measured is the server's alone:
 *
 * 1. Idle sockets: N sockets (default 10,000), each connected and subscribed to a channel of its own, held by one
 *    process; its RSS (from /proc) before and after, and per socket. Target: 10,000 sockets within 1 GB RSS.
 * 2. Fan-out: 1,000 subscribers of one channel; one event triggered through the signed HTTP events API (the
 *    `pusher` SDK, as the pusher driver and Laravel trigger), latency from just before the call to each subscriber's
 *    receipt, over many rounds: p50/p99 per delivery and of the last subscriber per round. Target p99 ≤ 50 ms.
 * 3. The same fan-out through Redis: two processes sharing a throwaway redis-server, subscribers split between them,
 *    every event triggered on the second (so half the deliveries cross Redis).
 *
 * `npm run bench -- --only realtime` runs this part alone; REALTIME_IDLE_SOCKETS, REALTIME_SUBSCRIBERS and
 * REALTIME_ROUNDS change the sizes. Latencies are wall-clock differences between two processes on one machine
 * (performance.timeOrigin + performance.now(), microsecond resolution).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import PusherSdk from 'pusher';
import WebSocket from 'ws';
import { freePort, startRedis } from '#tests/local-processes.ts';

const START = '<!-- realtime:start -->';
const END = '<!-- realtime:end -->';

export interface LatencySummary {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface FanoutResult {
  subscribers: number;
  rounds: number;
  perDelivery: LatencySummary;
  lastPerRound: LatencySummary;
  /** CPU time of the server process(es) per broadcast (user + system, /proc): the server's own cost, whatever else runs. */
  serverCpuMsPerBroadcast: number;
}

export interface RealtimeReport {
  date: string;
  machine: string;
  /** Load average (1 min) when the run started and ended: other work on the machine skews every number. */
  load: [number, number];
  idle: { sockets: number; appRssMb: number; bareEmptyMb: number; bareFullMb: number; perSocketKb: number } | { error: string };
  fanout: FanoutResult | { error: string };
  redis: (FanoutResult & { processes: number }) | { error: string };
}

const now = () => performance.timeOrigin + performance.now();

function summary(values: number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { samples: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

interface Credentials {
  appId: string;
  key: string;
  secret: string;
}

interface Node {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `server/main.ts` run by node itself (not through the tsx CLI, which is a wrapper process: its pid would not be the
 * server's), with no demo data and no per-IP connection cap (every client here is 127.0.0.1).
 */
async function startNode(root: string, creds: Credentials, extra: NodeJS.ProcessEnv = {}): Promise<Node> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-rt-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HTTP_MAX_CONNECTIONS_PER_IP: '0',
      PUSHER_APP_ID: creds.appId,
      PUSHER_APP_KEY: creds.key,
      PUSHER_APP_SECRET: creds.secret,
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { port, pid: child.pid!, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function startBareNode(creds: Credentials): Promise<Node> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--realtime-bare-server'], {
    env: { ...process.env, PUSHER_APP_ID: creds.appId, PUSHER_APP_KEY: creds.key, PUSHER_APP_SECRET: creds.secret },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare realtime server exited (${code})`)));
  });
  return {
    port,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** User + system CPU time of a process so far, in ms (/proc/{pid}/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

// ---- the client side, in its own process ----------------------------------------------------------------------

type ToClients =
  { cmd: 'open'; port: number; key: string; count: number; channel: string | null } | { cmd: 'expect'; event: string } | { cmd: 'close' };
type FromClients = { opened: number } | { latencies: number[] } | { closed: true } | { error: string };

/** Runs in the child: opens sockets, subscribes, reports receipt latencies of `expect`ed events. */
function clientsMain(): void {
  const sockets: WebSocket[] = [];
  let expected: string | null = null;
  let latencies: number[] = [];
  let target = 0;
  const send = (m: FromClients) => process.send!(m);

  async function open(port: number, key: string, count: number, channel: string | null): Promise<void> {
    let next = 0;
    const openOne = () =>
      new Promise<void>((resolve, reject) => {
        const i = next++;
        const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${key}?protocol=7&client=js&version=8.6.0`, { perMessageDeflate: false });
        const name = channel ?? `idle-${i}`;
        ws.on('error', reject);
        ws.on('message', (raw: Buffer) => {
          const text = raw.toString();
          if (text.includes('pusher:connection_established'))
            return ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: name } }));
          if (text.includes('pusher_internal:subscription_succeeded')) return resolve();
          if (text.includes('pusher:ping')) return ws.send('{"event":"pusher:pong","data":{}}');
          if (expected && text.includes(expected)) {
            const at = now();
            // The send time only (`"data":"{\"t\":…}"`): a full parse per receipt would be the client's cost, not the server's.
            latencies.push(at - Number(/t\\":([\d.]+)/.exec(text)?.[1]));
            if (latencies.length === target) {
              send({ latencies });
              latencies = [];
            }
          }
        });
        sockets.push(ws);
      });
    // A few hundred handshakes at a time: the listen backlog is finite.
    const workers = Array.from({ length: 200 }, async () => {
      while (next < count) await openOne();
    });
    await Promise.all(workers);
    send({ opened: sockets.length });
  }

  process.on('message', (m: ToClients) => {
    if (m.cmd === 'open') open(m.port, m.key, m.count, m.channel).catch((err: unknown) => send({ error: String(err) }));
    else if (m.cmd === 'expect') {
      expected = m.event;
      target = sockets.length;
    } else {
      for (const ws of sockets) ws.terminate();
      send({ closed: true });
      setTimeout(() => process.exit(0), 50);
    }
  });
}

interface Clients {
  open(port: number, key: string, count: number, channel: string | null): Promise<number>;
  expect(event: string): void;
  nextLatencies(): Promise<number[]>;
  close(): Promise<void>;
}

function startClients(): Clients {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--realtime-clients'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((m: FromClients) => void)[] = [];
  child.on('message', (m: FromClients) => waiting.shift()?.(m));
  const next = () =>
    new Promise<FromClients>((resolve, reject) => waiting.push((m) => ('error' in m ? reject(new Error(m.error)) : resolve(m))));
  return {
    async open(port, key, count, channel) {
      const reply = next();
      child.send({ cmd: 'open', port, key, count, channel } satisfies ToClients);
      return ((await reply) as { opened: number }).opened;
    },
    expect(event) {
      child.send({ cmd: 'expect', event } satisfies ToClients);
    },
    async nextLatencies() {
      return ((await next()) as { latencies: number[] }).latencies;
    },
    async close() {
      const reply = next();
      child.send({ cmd: 'close' } satisfies ToClients);
      await reply;
    },
  };
}

// ---- scenarios --------------------------------------------------------------------------------------------------

function credentials(): Credentials {
  return { appId: '424242', key: crypto.randomBytes(10).toString('hex'), secret: crypto.randomBytes(20).toString('hex') };
}

/** RSS once it has stopped moving (garbage collection and start-up leftovers settle), at most 30 s. */
async function settledRss(pid: number): Promise<number> {
  let last = rssMb(pid);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = rssMb(pid);
    if (Math.abs(now - last) / last < 0.01 && i >= 2) return now;
    last = now;
  }
  return last;
}

/**
 * The real app holding `count` sockets (the target is its RSS), and the websocket server alone before and after the
 * same sockets (its RSS at rest is small and steady, so the difference is what the sockets cost).
 */
async function idleSockets(root: string, count: number, log: (m: string) => void): Promise<RealtimeReport['idle']> {
  const hold = async (node: Node, key: string, before: boolean) => {
    const clients = startClients();
    try {
      const empty = before ? await settledRss(node.pid) : NaN;
      const opened = await clients.open(node.port, key, count, null);
      return { opened, empty, full: await settledRss(node.pid) };
    } finally {
      await clients.close();
      await node.stop();
    }
  };
  const creds = credentials();
  log(`realtime: ${count} idle sockets on server/main.ts`);
  const app = await hold(await startNode(root, creds), creds.key, false);
  log(`realtime: app RSS ${app.full.toFixed(0)} MB with ${app.opened} sockets; the same on the websocket server alone`);
  const bare = await hold(await startBareNode(creds), creds.key, true);
  log(`realtime: bare server RSS ${bare.empty.toFixed(0)} → ${bare.full.toFixed(0)} MB`);
  return {
    sockets: app.opened,
    appRssMb: app.full,
    bareEmptyMb: bare.empty,
    bareFullMb: bare.full,
    perSocketKb: ((bare.full - bare.empty) * 1024) / bare.opened,
  };
}

/** Subscribers split over `nodes` (one client process each); every event triggered on the last node. */
async function fanout(nodes: Node[], creds: Credentials, subscribers: number, rounds: number): Promise<FanoutResult> {
  const clients = nodes.map(() => startClients());
  try {
    const share = Math.floor(subscribers / nodes.length);
    let total = 0;
    for (const [i, node] of nodes.entries())
      total += await clients[i]!.open(node.port, creds.key, i === nodes.length - 1 ? subscribers - share * i : share, 'fanout');
    const sdk = new PusherSdk({
      appId: creds.appId,
      key: creds.key,
      secret: creds.secret,
      host: '127.0.0.1',
      port: String(nodes.at(-1)!.port),
    });
    for (const c of clients) c.expect('bench-fanout');
    const all: number[] = [];
    const last: number[] = [];
    let cpuStart = 0;
    // A few warm-up rounds (JIT, connection pool), not counted.
    for (let round = -5; round < rounds; round++) {
      const pending = clients.map((c) => c.nextLatencies());
      await sdk.trigger('fanout', 'bench-fanout', JSON.stringify({ t: now() }));
      const received = (await Promise.all(pending)).flat();
      if (received.length !== total) throw new Error(`round ${round}: ${received.length} of ${total} deliveries`);
      if (round === -1) cpuStart = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0);
      if (round >= 0) {
        all.push(...received);
        last.push(Math.max(...received));
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const cpu = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0) - cpuStart;
    return { subscribers: total, rounds, perDelivery: summary(all), lastPerRound: summary(last), serverCpuMsPerBroadcast: cpu / rounds };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

const errorOf = (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) });

export async function benchRealtime(root: string, log: (m: string) => void): Promise<RealtimeReport> {
  const idleCount = Number(process.env.REALTIME_IDLE_SOCKETS ?? 10_000);
  const subscribers = Number(process.env.REALTIME_SUBSCRIBERS ?? 1000);
  const rounds = Number(process.env.REALTIME_ROUNDS ?? 200);
  const report: RealtimeReport = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`,
    load: [os.loadavg()[0]!, NaN],
    idle: { error: 'not run' },
    fanout: { error: 'not run' },
    redis: { error: 'not run' },
  };
  report.idle = await idleSockets(root, idleCount, log).catch(errorOf);

  log(`realtime: fan-out to ${subscribers} subscribers, ${rounds} rounds`);
  const creds = credentials();
  const single = await startNode(root, creds);
  report.fanout = await fanout([single], creds, subscribers, rounds)
    .catch(errorOf)
    .finally(() => single.stop());

  log('realtime: the same through Redis, two processes');
  try {
    const redis = await startRedis();
    const redisCreds = credentials();
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'bench:' };
    const nodes = await Promise.all([startNode(root, redisCreds, env), startNode(root, redisCreds, env)]);
    try {
      report.redis = { ...(await fanout(nodes, redisCreds, subscribers, rounds)), processes: 2 };
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
      await redis.stop();
    }
  } catch (err) {
    report.redis = errorOf(err);
  }
  report.load[1] = os.loadavg()[0]!;
  return report;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

function fanoutRows(label: string, r: FanoutResult | { error: string }): string {
  if ('error' in r) return `| ${label} | not measured: ${r.error} | | | | |`;
  return `| ${label} | ${r.subscribers} × ${r.rounds} | ${ms(r.perDelivery.p50)} / ${ms(r.perDelivery.p99)} | ${ms(r.lastPerRound.p50)} / ${ms(r.lastPerRound.p99)} | ${ms(r.perDelivery.max)} | ${ms(r.serverCpuMsPerBroadcast)} |`;
}

export function renderRealtimeSection(r: RealtimeReport): string {
  const idle =
    'error' in r.idle
      ? `Not measured: ${r.idle.error}.`
      : `${r.idle.sockets.toLocaleString('en')} sockets, each subscribed to a channel of its own, held by \`server/main.ts\`: RSS **${r.idle.appRssMb.toFixed(0)} MB** (target: 10,000 within 1 GB — ${r.idle.appRssMb <= 1024 && r.idle.sockets >= 10_000 ? 'met' : 'not met'}; most of it is the app's own memory, embedded database included). The websocket server alone (same code, no database or app) goes from ${r.idle.bareEmptyMb.toFixed(0)} MB to ${r.idle.bareFullMb.toFixed(0)} MB with the same sockets: **≈${r.idle.perSocketKb.toFixed(1)} KB per socket** (RSS once settled; garbage collection moves it by a few MB).`;
  const fan = r.fanout;
  const verdict =
    'error' in fan
      ? ''
      : ` Target p99 ≤ 50 ms per delivery: ${fan.perDelivery.p99 <= 50 ? 'met' : 'not met'} (${ms(fan.perDelivery.p99)}).`;
  return [
    START,
    '## Realtime (websocket server)',
    '',
    `Measured ${r.date} on ${r.machine} by \`npm run bench -- --only realtime\` (bench/lib/realtime.ts): real \`server/main.ts\` processes (PGlite, no demo data), the websocket clients in a separate process so the RSS is the server's alone.`,
    '',
    `**Idle sockets held by one process:** ${idle}`,
    '',
    `**Fan-out of one event** triggered through the signed HTTP events API (the \`pusher\` SDK) to every subscriber of one channel, latency from just before the call to each receipt, on loopback; the frame is serialized once per broadcast.${verdict}`,
    '',
    '| | subscribers × rounds | per delivery p50 / p99 | last subscriber of a round p50 / p99 | max | server CPU per broadcast |',
    '| --- | --- | --- | --- | --- | --- |',
    fanoutRows('one process', r.fanout),
    fanoutRows('two processes + Redis (half the subscribers on each, triggered on the second)', r.redis),
    '',
    `Clients and servers share the machine's ${os.cpus().length} cores, so the latencies include the clients’ own work of receiving 1,000 frames per round; load average (1 min) ${r.load[0].toFixed(1)} at the start of the run and ${r.load[1].toFixed(1)} at its end (other work on the machine delays deliveries as much as the server does). The server's CPU time per broadcast (HTTP request, signature, 1,000 frames written; both processes with Redis) does not depend on that load: it bounds what the server itself adds.`,
    END,
  ].join('\n');
}

export function spliceRealtimeSection(markdown: string, section: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + END.length);
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

/**
 * The websocket server alone (no database, no app) on a plain HTTP server: a process whose memory at rest is small
 * and steady, so the cost of each socket shows in its RSS.
 */
async function bareServerMain(): Promise<void> {
  const http = await import('node:http');
  const { PusherServer } = await import('../../server/realtime/pusher-server.ts');
  const { localAdapter } = await import('../../server/realtime/adapter.ts');
  const server = http.createServer((_req, res) => res.end());
  const realtime = new PusherServer({
    app: { id: process.env.PUSHER_APP_ID!, key: process.env.PUSHER_APP_KEY!, secret: process.env.PUSHER_APP_SECRET! },
    adapter: localAdapter(),
    log: { error: console.error, warn: console.warn, info() {}, debug() {} } as unknown as FastifyBaseLogger,
    activityTimeoutSec: 120,
    pongTimeoutMs: 30_000,
  });
  server.on('upgrade', (req, socket, head) => {
    if (!realtime.handleUpgrade(req, socket, head)) socket.destroy();
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as net.AddressInfo).port }));
}

if (process.argv.includes('--realtime-clients')) clientsMain();
if (process.argv.includes('--realtime-bare-server')) void bareServerMain();
