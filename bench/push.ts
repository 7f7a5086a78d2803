/**
 * Web Push benchmark (issue 25), `npm run bench:push` (NODE_EXTRA_CA_CERTS set by the script: the test push service's
 * CA must be trusted from the process's start). The real app (buildApp on PGlite in memory, its job runner polling
 * every 5 s as in production, poked after each commit) sends to the tests' real RFC 8030 push service on loopback
 * HTTPS (tests/push-service.ts), which checks VAPID and decrypts each push.
 *
 * 1. Reply → push: a staff reply POSTed (app.inject with session and CSRF, as the PWA sends it) until the push service
 *    has received and decrypted the push for the user's device; p50/p95/p99 over PUSH_BENCH_REPLIES (default 200).
 *    Beside it, the POST's own answer time in the same run: the ratio says what the push adds.
 * 2. Fan-out: one decision's notification to a user with 1,000 subscribed devices, until all 1,000 have it.
 *
 * Rewrites the section between the push markers of docs/benchmarks.md (BENCH_OUT).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API } from '../contract/routes.ts';
import { pushSubscriptions, sessions } from '../server/db/schema.ts';
import { notify } from '../server/modules/notifications/notifications.ts';
import { hashToken } from '../server/plugins/session.ts';
import { signedIn } from '../tests/agent.ts';
import { buildUser } from '../tests/factories.ts';
import { startPushService } from '../tests/push-service.ts';
import { createTestApp } from '../tests/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = process.env.BENCH_OUT ?? path.join(ROOT, 'docs/benchmarks.md');
const START = '<!-- push:start -->';
const END = '<!-- push:end -->';
const REPLIES = Number(process.env.PUSH_BENCH_REPLIES ?? 200);
const DEVICES = 1000;

const now = () => performance.now();
function q(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main() {
  if (!process.env.NODE_EXTRA_CA_CERTS?.includes('push-certs')) throw new Error('run with npm run bench:push (NODE_EXTRA_CA_CERTS)');
  const service = await startPushService();
  const t = await createTestApp({ jobsPollMs: 5000 });
  t.config.push.endpointOrigins.push(service.origin);
  const db = t.database.db;
  try {
    // Several staff accounts: the chat's 30-messages-a-minute limit per sender is not what is measured.
    const staff = await Promise.all(Array.from({ length: 10 }, () => signedIn(t.app, db, { role: 'admin' })));
    const user = await signedIn(t.app, db, { role: 'client' });
    const device = service.subscriber();
    const posted = await user.agent.post(API.pushSubscriptions, device.subscription);
    if (posted.statusCode !== 201) throw new Error(`subscribe: ${posted.statusCode} ${posted.body}`);
    const conversation = (await user.agent.post(API.supportConversations, {})).json<{ data: { id: number } }>().data.id;

    const delivered: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < REPLIES; i++) {
      const before = device.received.length;
      const started = now();
      const res = await staff[i % staff.length]!.agent.post(API.supportMessages(conversation), { content: `Respuesta ${i}` });
      answered.push(now() - started);
      if (res.statusCode !== 201) throw new Error(`reply ${i}: ${res.statusCode} ${res.body}`);
      await service.waitFor(() => device.received.length > before, 15_000);
      delivered.push(now() - started);
      // The user reads it, as they would: the next reply is pushed as one new message again.
      await user.agent.post(API.supportRead(conversation), { seq: 1_000_000 });
    }

    // Fan-out: 1,000 devices of one user, each under a session of its own.
    const many = await buildUser(db, { role: 'model' });
    const subs = Array.from({ length: DEVICES }, () => service.subscriber());
    const rows = subs.map((s) => ({ s, idHash: hashToken(crypto.randomBytes(16).toString('hex')) }));
    await db
      .insert(sessions)
      .values(rows.map((r) => ({ idHash: r.idHash, userId: many.id, expiresAt: new Date(Date.now() + 86_400_000) })));
    await db.insert(pushSubscriptions).values(
      rows.map((r) => ({
        userId: many.id,
        sessionHash: r.idHash,
        endpoint: r.s.subscription.endpoint,
        p256dh: r.s.subscription.keys.p256dh,
        auth: r.s.subscription.keys.auth,
      })),
    );
    const fanStart = now();
    await notify(t.app, many.id, { kind: 'account.reinstated' });
    await service.waitFor(() => subs.every((s) => s.received.length === 1), 120_000);
    const fanOut = now() - fanStart;

    const section = [
      START,
      '## Web Push (issue 25)',
      '',
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), load ${os
        .loadavg()
        .slice(0, 2)
        .map((v) => v.toFixed(2))
        .join(
          ' / ',
        )}, with \`npm run bench:push\` (bench/push.ts). The app (PGlite in memory, the job runner polling every 5 s and poked after each commit) sends to the tests' RFC 8030 push service on loopback HTTPS, which checks VAPID and decrypts every push (tests/push-service.ts).`,
      '',
      '| Measure | p50 | p95 | p99 |',
      '| --- | --- | --- | --- |',
      `| staff reply POST → push received and decrypted (${REPLIES} replies) | ${ms(q(delivered, 0.5))} | **${ms(q(delivered, 0.95))}** | ${ms(q(delivered, 0.99))} |`,
      `| the same POST's own answer (same run) | ${ms(q(answered, 0.5))} | ${ms(q(answered, 0.95))} | ${ms(q(answered, 0.99))} |`,
      `| ratio push / answer | ${(q(delivered, 0.5) / q(answered, 0.5)).toFixed(2)}× | ${(q(delivered, 0.95) / q(answered, 0.95)).toFixed(2)}× | |`,
      '',
      `One decision's notification fanned out to **${DEVICES.toLocaleString('en')} devices** of one user (encrypted and signed once per device, 50 at a time): **${(fanOut / 1000).toFixed(2)} s** until the push service had all ${DEVICES.toLocaleString('en')} (${((DEVICES / fanOut) * 1000).toFixed(0)} pushes/s).`,
      END,
    ].join('\n');
    const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    const next = current.includes(START)
      ? current.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${current.trimEnd()}\n\n${section}\n`;
    fs.writeFileSync(OUT, next);
    console.log(section);
  } finally {
    await t.close();
    await service.stop();
  }
}

await main();
