/**
 * A real RFC 8030 push service for tests, on loopback over HTTPS (tests/push-certs: the server under test trusts the
 * CA through NODE_EXTRA_CA_CERTS). Devices made with `subscriber()` hold a real P-256 key pair and auth secret, as a
 * browser does; every push sent to one is recorded with its RFC 8030 headers, its VAPID signature checked (RFC 8292)
 * and its body decrypted with the device's private key (RFC 8291, aes128gcm). No vitest import: the e2e use it too.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

const CERTS = path.resolve(import.meta.dirname, 'push-certs');

export interface ReceivedPush {
  subscriberId: string;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  contentEncoding: string | undefined;
  /** The VAPID JWT verified against the key it named, for this origin, not expired. */
  vapidValid: boolean;
  /** The key the VAPID header named (base64url). */
  vapidKey: string | undefined;
  /** The decrypted body, as text and parsed (null when not JSON). */
  text: string;
  json: unknown;
  receivedAt: number;
}

export interface Subscriber {
  id: string;
  /** `PushSubscription.toJSON()` as a browser would give it. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** What the next pushes to this device are answered with (default 201); each entry is used once, then 201. */
  answers: { status: number; headers?: Record<string, string> }[];
  received: ReceivedPush[];
}

function verifyVapid(authorization: string | undefined, audience: string): { valid: boolean; key: string | undefined } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) return { valid: false, key: undefined };
  const [, jwt, key] = m as unknown as [string, string, string];
  try {
    const [h, p, sig] = jwt.split('.') as [string, string, string];
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string };
    const raw = Buffer.from(key, 'base64url');
    const publicKey = crypto.createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
      format: 'jwk',
    });
    const ok = crypto.verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig, 'base64url'),
    );
    const valid =
      ok &&
      header.alg === 'ES256' &&
      claims.aud === audience &&
      typeof claims.exp === 'number' &&
      claims.exp * 1000 > Date.now() &&
      typeof claims.sub === 'string';
    return { valid, key };
  } catch {
    return { valid: false, key };
  }
}

export class PushService {
  private readonly subscribers = new Map<string, Subscriber & { ecdh: crypto.ECDH; authSecret: string }>();
  private readonly waiters = new Set<() => void>();
  private server: https.Server | null = null;
  origin = '';

  async start(port = 0): Promise<this> {
    this.server = https.createServer(
      { cert: fs.readFileSync(path.join(CERTS, 'server.pem')), key: fs.readFileSync(path.join(CERTS, 'server-key.pem')) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => this.receive(req, Buffer.concat(chunks), res));
      },
    );
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections());
  }

  /** A device with its own keys, as `pushManager.subscribe()` makes one. */
  subscriber(): Subscriber {
    const id = crypto.randomBytes(12).toString('base64url');
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = crypto.randomBytes(16).toString('base64url');
    const sub = {
      id,
      ecdh,
      authSecret,
      subscription: {
        endpoint: `${this.origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret },
      },
      answers: [],
      received: [],
    };
    this.subscribers.set(id, sub);
    return sub;
  }

  /** Every push received, all devices, in order. */
  get received(): ReceivedPush[] {
    return [...this.subscribers.values()].flatMap((s) => s.received).sort((a, b) => a.receivedAt - b.receivedAt);
  }

  /** Resolves once `predicate` holds (checked on each push), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`push service: condition not met within ${timeoutMs} ms (${this.received.length} received)`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private receive(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const m = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '');
    const sub = m ? this.subscribers.get(m[1]!) : undefined;
    if (req.method !== 'POST' || !sub) {
      res.writeHead(404).end();
      return;
    }
    const answer = sub.answers.shift() ?? { status: 201 };
    if (answer.status === 201) {
      const vapid = verifyVapid(req.headers.authorization, this.origin);
      let text = '';
      try {
        text = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.authSecret }).toString('utf8');
      } catch (err) {
        text = `<undecryptable: ${(err as Error).message}>`;
      }
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Left null: the test says what it expected.
      }
      sub.received.push({
        subscriberId: sub.id,
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
        topic: req.headers.topic as string | undefined,
        contentEncoding: req.headers['content-encoding'],
        vapidValid: vapid.valid,
        vapidKey: vapid.key,
        text,
        json,
        receivedAt: Date.now(),
      });
      res.writeHead(201, { location: `${this.origin}/message/${crypto.randomUUID()}` }).end();
      for (const check of [...this.waiters]) check();
      return;
    }
    res.writeHead(answer.status, answer.headers ?? {}).end();
  }
}

export async function startPushService(port = 0): Promise<PushService> {
  return new PushService().start(port);
}
