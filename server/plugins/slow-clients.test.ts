/**
 * Slow clients against a real listening server on 127.0.0.1 (app.inject() has no sockets): raw net.Sockets write
 * partial requests or trickle bytes, with short configured limits. Each hostile connection must be closed by the
 * server; an upload at a decent rate, with the server busy on its first photo while the second is on the way, must
 * still succeed. A few cases use a bare Node server guarded the same way, to control when the body is read.
 */
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpLimits } from '#server/config.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { jpeg } from '../modules/media/test-images.ts';
import { loginAs, uploadBody } from '../modules/media/test-helpers.ts';
import { guardSlowClients } from './slow-clients.ts';

const LIMITS: HttpLimits = {
  headersTimeoutMs: 1_000,
  requestTimeoutMs: 60_000,
  bodyTimeoutMs: 1_500,
  bodyMinRate: 2_000,
  idleTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  maxConnectionsPerIp: 40,
};

interface RawClient {
  socket: net.Socket;
  /** Everything the server answered so far. */
  received(): string;
  isClosed(): boolean;
  /** Resolves when the server (or the network) closed the connection. */
  closed: Promise<void>;
}

async function connect(port: number): Promise<RawClient> {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  // A write racing the server's close fails with EPIPE/ECONNRESET: that is the close we are waiting for.
  socket.on('error', () => {});
  const closedPromise = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, isClosed: () => closed, closed: closedPromise };
}

/** Writes `bytes` one at a time every `everyMs` until they are all sent or the connection closes; answers how many went. */
async function trickle(client: RawClient, bytes: Buffer, everyMs: number): Promise<number> {
  let sent = 0;
  while (sent < bytes.length && !client.isClosed() && !client.socket.destroyed) {
    client.socket.write(bytes.subarray(sent, sent + 1));
    sent++;
    await sleep(everyMs);
  }
  return sent;
}

function head(method: string, url: string, headers: Record<string, string | number>): string {
  return `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

/** The headers the PWA sends on a state-changing call: its cookies, the XHR marker, the XSRF token. */
function browserHeaders(agent: Agent): Record<string, string> {
  return {
    Cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'X-Requested-With': 'XMLHttpRequest',
    'X-XSRF-TOKEN': agent.cookies.get('XSRF-TOKEN') ?? '',
  };
}

describe('slow clients against the app', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ http: LIMITS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes a connection whose body is trickled a byte at a time, answering 408', async () => {
    const agent = await newAgent(t.app);
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(1900), email: 'a@b.test' }));
    const client = await connect(port);
    client.socket.write(
      head('POST', '/api/contact', { ...browserHeaders(agent), 'Content-Type': 'application/json', 'Content-Length': body.length }),
    );
    // 20 bytes a second, far below the 2,000 required: all of it would take 100 s.
    const sending = trickle(client, body, 50);
    await client.closed;
    expect(await sending).toBeLessThan(body.length);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose Content-Length promises more body than ever comes', async () => {
    const agent = await newAgent(t.app);
    const client = await connect(port);
    client.socket.write(
      head('POST', '/api/contact', { ...browserHeaders(agent), 'Content-Type': 'application/json', 'Content-Length': 5000 }) +
        '{"name":"Ana"',
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body stalls on an upload route too (multipart, signed in)', async () => {
    const m = await buildModel(t.database.db, { name: 'Lenta Subida' });
    const agent = await loginAs(t.app, t.database.db, m.userId);
    const { payload, headers } = uploadBody(m.adId, [{ filename: 'a.jpg', data: await jpeg(400, 300) }]);
    const client = await connect(port);
    client.socket.write(head('POST', '/api/upload/images', { ...browserHeaders(agent), ...headers, 'Content-Length': payload.length }));
    // The part with ad_id and the start of the file, then nothing more.
    client.socket.write(payload.subarray(0, 400));
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose request head is trickled, or never sent', async () => {
    const slow = await connect(port);
    const silent = await connect(port);
    const line = Buffer.from(`GET /api/cities/search?q=ovi HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(400)}\r\n\r\n`);
    const sent = await trickle(slow, line, 20);
    await slow.closed;
    await silent.closed;
    expect(sent).toBeLessThan(line.length);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps an upload at a decent rate, while the server works on its first photo as the second arrives', async () => {
    const m = await buildModel(t.database.db, { name: 'Subida Móvil' });
    const agent = await loginAs(t.app, t.database.db, m.userId);
    const { payload, headers } = uploadBody(m.adId, [
      { filename: 'uno.jpg', data: await jpeg(2400, 1800, 1) },
      { filename: 'dos.jpg', data: await jpeg(2400, 1800, 2) },
    ]);
    expect(payload.length).toBeGreaterThan(1_000_000);
    const client = await connect(port);
    client.socket.write(head('POST', '/api/upload/images', { ...browserHeaders(agent), ...headers, 'Content-Length': payload.length }));
    // 32 KB every 25 ms (≈ 1.3 MB/s, a good mobile link), respecting back-pressure like a real client.
    for (let at = 0; at < payload.length && !client.isClosed(); at += 32 * 1024) {
      if (!client.socket.write(payload.subarray(at, at + 32 * 1024))) await new Promise((resolve) => client.socket.once('drain', resolve));
      await sleep(25);
    }
    while (!/\r\n\r\n[\s\S]*\}$/.test(client.received()) && !client.isClosed()) await sleep(50);
    client.socket.destroy();
    expect(client.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect(client.received()).toContain('"file":"dos.jpg"');
  });

  it('refuses connections past the cap for one address, and serves the ones within it', async () => {
    // The earlier tests' connections are gone on the server's side too before counting starts.
    const open = () => new Promise<number>((resolve) => t.app.server.getConnections((_err, n) => resolve(n)));
    while ((await open()) > 0) await sleep(20);
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerIp }, () => connect(port)));
    const extra = await connect(port);
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(held.filter((c) => c.isClosed())).toHaveLength(0);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    // Their slots are free again.
    const again = await connect(port);
    again.socket.write(head('GET', '/api/health', { Connection: 'close' }));
    await again.closed;
    expect(again.received()).toMatch(/^HTTP\/1\.1 \d{3} /);
  });
});

describe('guardSlowClients on a bare server', () => {
  let server: http.Server;
  let port: number;
  const sockets = new Set<net.Socket>();
  let unguard: () => void;
  /** How long the handler leaves the body unread before reading it (the server busy, not the client slow). */
  let busyMs = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      setTimeout(() => {
        let n = 0;
        req.on('data', (c: Buffer) => (n += c.length));
        req.on('end', () => res.end(`got ${n}`));
      }, busyMs);
    });
    server.on('upgrade', (_req, socket: net.Socket, early: Buffer) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
      socket.write(early);
      socket.on('data', (d: Buffer) => socket.write(d));
    });
    server.on('connection', (s: net.Socket) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    unguard = guardSlowClients(server, { bodyTimeoutMs: 300, bodyMinRate: 1_000, maxConnectionsPerIp: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    unguard();
    // Upgraded sockets are no longer the server's to close.
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('does not charge the client for the time the server leaves its body unread', async () => {
    busyMs = 1_500;
    const client = await connect(port);
    const body = Buffer.alloc(200_000, 'a');
    client.socket.write(head('POST', '/', { 'Content-Length': body.length }));
    // All of it at once: the rest waits in the socket buffers while the handler is busy for five windows.
    client.socket.write(body);
    while (!/got \d+$/.test(client.received()) && !client.isClosed()) await sleep(50);
    client.socket.destroy();
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*got 200000$/);
  });

  it('closes a trickled body once the server is reading it', async () => {
    busyMs = 0;
    const client = await connect(port);
    client.socket.write(head('POST', '/', { 'Content-Length': 1000 }));
    const sent = await trickle(client, Buffer.alloc(1000, 'a'), 20);
    await client.closed;
    expect(sent).toBeLessThan(1000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('leaves an upgraded connection (websocket) alone, however slow its traffic', async () => {
    const client = await connect(port);
    client.socket.write(head('GET', '/app/key', { Connection: 'Upgrade', Upgrade: 'test' }));
    // Five windows' worth of a byte every 100 ms: a body at that rate would have been closed.
    try {
      const sent = await trickle(client, Buffer.alloc(15, 'w'), 100);
      expect(sent).toBe(15);
      while (!client.received().endsWith('w'.repeat(15)) && !client.isClosed()) await sleep(20);
      expect(client.isClosed()).toBe(false);
      expect(client.received()).toMatch(/^HTTP\/1\.1 101 [\s\S]*\r\n\r\nw{15}$/);
    } finally {
      client.socket.destroy();
    }
  });
});
