/**
 * The Broadcaster the services use, through both drivers: `embedded` (this process's server) and `pusher` (the SDK
 * towards a Pusher-compatible server: here another app instance's embedded server, which is one). The same tests
 * run against each; the subscribers are real pusher-js clients connected to the serving instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { testConfig } from '#server/config.ts';
import type Pusher from 'pusher-js';
import type { Broadcaster } from './broadcaster.ts';
import { RawClient, connected, listeningApp, parseData, pusherJs, until, type ListeningApp } from './test-helpers.ts';

let serving: ListeningApp;
let viaPusher: TestApp;

beforeAll(async () => {
  serving = await listeningApp();
  const { appId, key, secret } = serving.config.realtime;
  viaPusher = await createTestApp({
    realtime: { ...testConfig().realtime, driver: 'pusher', appId, key, secret, host: '127.0.0.1', port: serving.port, scheme: 'http' },
  });
}, 180_000);

afterAll(async () => {
  await viaPusher?.close();
  await serving?.close();
});

const drivers: [string, () => Broadcaster][] = [
  ['embedded', () => serving.app.broadcaster],
  ['pusher', () => viaPusher.app.broadcaster],
];

describe.each(drivers)('broadcasting through the %s driver', (_name, broadcaster) => {
  const clients: Pusher[] = [];
  const client = (user?: { id: string; info?: unknown }) => {
    const c = pusherJs(serving.port, serving.config.realtime.key, broadcaster(), user);
    clients.push(c);
    return c;
  };
  const subscribed = (c: Pusher, name: string) =>
    new Promise<ReturnType<Pusher['subscribe']>>((resolve, reject) => {
      const ch = c.subscribe(name);
      ch.bind('pusher:subscription_succeeded', () => resolve(ch));
      ch.bind('pusher:subscription_error', reject);
    });

  afterAll(() => {
    for (const c of clients) c.disconnect();
  });

  it('delivers to public and private channels, signed by the driver, except the X-Socket-ID socket', async () => {
    const a = client();
    const b = client();
    const [, bId] = await Promise.all([connected(a), connected(b)]);
    const [pubA, privA, privB] = await Promise.all([
      subscribed(a, 'catalogue'),
      subscribed(a, 'private-support.chat.5'),
      subscribed(b, 'private-support.chat.5'),
    ]);
    const gotPublic = new Promise((resolve) => pubA.bind('Updated', resolve));
    const gotPrivate = new Promise((resolve) => privA.bind('App\\Events\\MessageSent', resolve));
    let bGot = 0;
    privB.bind('App\\Events\\MessageSent', () => bGot++);
    await broadcaster().trigger(['catalogue'], 'Updated', { n: 1 });
    await broadcaster().trigger(
      ['private-support.chat.5'],
      'App\\Events\\MessageSent',
      { content: '¿Hola? <b>', seq: 1 },
      { socketId: bId },
    );
    expect(await gotPublic).toEqual({ n: 1 });
    expect(await gotPrivate).toEqual({ content: '¿Hola? <b>', seq: 1 });
    const later = new Promise((resolve) => privB.bind('later', resolve));
    await broadcaster().trigger(['private-support.chat.5'], 'later', {});
    await later;
    expect(bGot).toBe(0);
  });

  it('delivers to more channels than one SDK call takes (100)', async () => {
    const raw = await RawClient.connect(serving.port, serving.config.realtime.key);
    await raw.subscribe(broadcaster(), 'wide-149');
    await raw.subscribe(broadcaster(), 'wide-0');
    const channels = Array.from({ length: 150 }, (_, i) => `wide-${i}`);
    await broadcaster().trigger(channels, 'Wide', 'x');
    expect((await raw.next((f) => f.channel === 'wide-149')).data).toBe('x');
    expect((await raw.next((f) => f.channel === 'wide-0')).data).toBe('x');
    await raw.close();
  });

  it('presence: the driver signs members; presenceMembers lists one entry per user', async () => {
    const channel = `presence-support.staff.${_name}`;
    const tabs = [client({ id: '7', info: { name: 'Ana' } }), client({ id: '7', info: { name: 'Ana' } }), client({ id: '8' })];
    await Promise.all(tabs.map((c) => subscribed(c, channel)));
    const ids = (await broadcaster().presenceMembers(channel)).map((m) => m.user_id).sort();
    expect(ids).toEqual(['7', '8']);
  });

  it('terminateUserConnections closes the signed-in user’s sockets only', async () => {
    const user = `term-${_name}`;
    const raw = await RawClient.connect(serving.port, serving.config.realtime.key);
    raw.send({ event: 'pusher:signin', data: broadcaster().authenticateUser(raw.socketId, { id: user }) });
    await raw.next('pusher:signin_success');
    const other = await RawClient.connect(serving.port, serving.config.realtime.key);
    await broadcaster().terminateUserConnections(user);
    expect((await raw.closed).code).toBe(4009);
    await other.roundTrip();
    await other.close();
  });

  it('a notification reaches laravel-echo’s .notification() on the user’s private channel', async () => {
    const { default: Echo } = await import('laravel-echo');
    const echo = new Echo({
      broadcaster: 'pusher',
      key: serving.config.realtime.key,
      cluster: 'local',
      withoutInterceptors: true,
      client: client({ id: '30' }),
    });
    const got = new Promise((resolve) => echo.private('App.Models.User.30').notification(resolve));
    await until(() => (serving.app.realtime?.localSubscriberCount('private-App.Models.User.30') ?? 0) > 0);
    await broadcaster().trigger(['private-App.Models.User.30'], 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated', {
      id: 'abc',
      type: 'ad.approved',
      message: 'Aprobado',
    });
    expect(await got).toMatchObject({ id: 'abc', type: 'ad.approved' });
  });
});

describe('the pusher driver', () => {
  it('GET /api/config points the browser at the configured server, with the key only', async () => {
    const res = await viaPusher.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    const body = res.json<{ realtime: unknown }>();
    expect(body.realtime).toEqual({ key: serving.config.realtime.key, host: '127.0.0.1', port: serving.port, force_tls: false });
    expect(res.body).not.toContain(serving.config.realtime.secret);
    expect(viaPusher.app.realtime).toBeUndefined();
  });

  it('a refused trigger (wrong secret) is logged, not thrown into the caller', async () => {
    const { appId, key } = serving.config.realtime;
    const wrong = await createTestApp({
      realtime: {
        ...testConfig().realtime,
        driver: 'pusher',
        appId,
        key,
        secret: 'wrong',
        host: '127.0.0.1',
        port: serving.port,
        scheme: 'http',
      },
    });
    try {
      const raw = await RawClient.connect(serving.port, key);
      await raw.subscribe(serving.app.broadcaster, 'catalogue');
      await expect(wrong.app.broadcaster.trigger(['catalogue'], 'Evil', {})).resolves.toBeUndefined();
      await serving.app.broadcaster.trigger(['catalogue'], 'Fine', {});
      expect(parseData(await raw.next('Fine'))).toEqual({});
      expect(raw.pending('Evil')).toHaveLength(0);
      await raw.close();
    } finally {
      await wrong.close();
    }
  });
});
