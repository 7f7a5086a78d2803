/**
 * Pusher protocol v7 conformance of the embedded server, driven by the real pusher-js and laravel-echo (Node builds)
 * and, for what they never send (bad JSON, forged signatures, oversize frames), by a raw `ws` client.
 */
import crypto from 'node:crypto';
import type net from 'node:net';
import WebSocket from 'ws';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import PusherServerSdk from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChannel, signUser } from './embedded-driver.ts';
import { CLIENT_EVENTS_PER_SECOND, MAX_MESSAGE_BYTES, channelSignature } from './protocol.ts';
import { RawClient, connected, errorMessage, listeningApp, parseData, pusherJs, until, type ListeningApp } from './test-helpers.ts';

let t: ListeningApp;
let key: string;
const clients: Pusher[] = [];

function client(user?: { id: string; info?: unknown }): Pusher {
  const c = pusherJs(t.port, key, t.app.broadcaster, user);
  clients.push(c);
  return c;
}

function subscribed(channel: ReturnType<Pusher['subscribe']>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve);
    channel.bind('pusher:subscription_error', reject);
  });
}

beforeAll(async () => {
  t = await listeningApp();
  key = t.config.realtime.key;
}, 180_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await t?.close();
});

describe('connection', () => {
  it('pusher-js connects: socket_id is \\d+.\\d+ and the server announces its activity timeout', async () => {
    const c = client();
    expect(await connected(c)).toMatch(/^\d+\.\d+$/);
    const raw = await RawClient.connect(t.port, key);
    expect(raw.socketId).toMatch(/^\d+\.\d+$/);
    await raw.close();
  });

  it('GET /api/config gives the browser the key, host, port and TLS flag of APP_URL — never the app id or secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    const { realtime } = res.json<{ realtime: Record<string, unknown> }>();
    const url = new URL(t.config.appUrl);
    expect(realtime).toEqual({ key, host: url.hostname, port: Number(url.port || 80), force_tls: url.protocol === 'https:' });
    expect(res.body).not.toContain(t.config.realtime.secret);
    expect(res.body).not.toContain(`"${t.config.realtime.appId}"`);
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const raw = await RawClient.connect(t.port, key);
    raw.send({ event: 'pusher:ping', data: {} });
    expect((await raw.next('pusher:pong')).event).toBe('pusher:pong');
    await raw.close();
  });

  it('refuses an unknown app key with 4001, and a missing or unsupported protocol with 4008/4007', async () => {
    const unknown = new RawClient(`ws://127.0.0.1:${t.port}/app/not-our-key?protocol=7`);
    expect((await unknown.next('pusher:error')).data).toMatchObject({ code: 4001 });
    expect((await unknown.closed).code).toBe(4001);
    expect((await new RawClient(`ws://127.0.0.1:${t.port}/app/${key}`).closed).code).toBe(4008);
    expect((await new RawClient(`ws://127.0.0.1:${t.port}/app/${key}?protocol=3`).closed).code).toBe(4007);
  });

  it('pusher-js gives up on an unknown key (4000–4099: no reconnection)', async () => {
    const c = pusherJs(t.port, 'wrong-key', t.app.broadcaster);
    clients.push(c);
    const state = await new Promise<string>((resolve) =>
      c.connection.bind('state_change', (s: { current: string }) =>
        s.current === 'failed' || s.current === 'disconnected' ? resolve(s.current) : undefined,
      ),
    );
    expect(['failed', 'disconnected']).toContain(state);
    expect(c.connection.state).not.toBe('connected');
  });

  it('a socket silent past the activity timeout is pinged, then closed with 4201; one that answers stays', async () => {
    const quick = await listeningApp({ activityTimeoutSec: 1, pongTimeoutMs: 300 });
    try {
      const silent = await RawClient.connect(quick.port, quick.config.realtime.key);
      const lively = await RawClient.connect(quick.port, quick.config.realtime.key);
      const answering = (async () => {
        for (;;) {
          await lively.next('pusher:ping');
          lively.send({ event: 'pusher:pong', data: {} });
        }
      })();
      void answering;
      expect((await silent.next('pusher:ping')).event).toBe('pusher:ping');
      expect((await silent.closed).code).toBe(4201);
      expect(lively.ws.readyState).toBe(lively.ws.OPEN);
      await lively.roundTrip();
      await lively.close();
    } finally {
      await quick.close();
    }
  });

  it('closing the app closes its sockets with 4200 (reconnect)', async () => {
    const other = await listeningApp();
    const raw = await RawClient.connect(other.port, other.config.realtime.key);
    await other.close();
    expect((await raw.closed).code).toBe(4200);
  });
});

describe('channels', () => {
  it('public channel: pusher-js subscribes and receives a trigger, except the socket named (toOthers)', async () => {
    const a = client();
    const b = client();
    const [, bId] = await Promise.all([connected(a), connected(b)]);
    const ca = a.subscribe('news');
    const cb = b.subscribe('news');
    await Promise.all([subscribed(ca), subscribed(cb)]);
    const gotA = new Promise((resolve) => ca.bind('App\\Events\\Published', resolve));
    let bGot = 0;
    cb.bind('App\\Events\\Published', () => bGot++);
    await t.app.broadcaster.trigger(['news'], 'App\\Events\\Published', { id: 1, title: 'ñ ✓' }, { socketId: bId });
    expect(await gotA).toEqual({ id: 1, title: 'ñ ✓' });
    // A later event reaches b, so the first one had had its chance.
    const later = new Promise((resolve) => cb.bind('later', resolve));
    await t.app.broadcaster.trigger(['news'], 'later', {});
    await later;
    expect(bGot).toBe(0);
  });

  it('private channel: subscribes with a valid signature; a forged one gets pusher:subscription_error 401', async () => {
    const c = client();
    const ch = c.subscribe('private-App.Models.User.7');
    await subscribed(ch);
    const got = new Promise((resolve) => ch.bind('ping', resolve));
    await t.app.broadcaster.trigger(['private-App.Models.User.7'], 'ping', 'text');
    expect(await got).toBe('text');

    const raw = await RawClient.connect(t.port, key);
    const forged = signChannel({ id: '1', key, secret: 'not-the-secret' }, raw.socketId, 'private-App.Models.User.7');
    raw.send({ event: 'pusher:subscribe', data: { channel: 'private-App.Models.User.7', ...forged } });
    const err = await raw.next('pusher:subscription_error');
    expect(err.channel).toBe('private-App.Models.User.7');
    expect(err.data).toMatchObject({ status: 401, type: 'AuthError' });
    // A signature for another socket does not do either.
    const other = t.app.broadcaster.authorizeChannel('1.2', 'private-App.Models.User.7');
    raw.send({ event: 'pusher:subscribe', data: { channel: 'private-App.Models.User.7', ...other } });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ status: 401 });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'private-x' } });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ status: 401 });
    await raw.close();
  });

  it('pusher-js reports a refused authorization as pusher:subscription_error', async () => {
    const c = new Pusher(key, {
      cluster: 'local',
      wsHost: '127.0.0.1',
      wsPort: t.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      channelAuthorization: {
        endpoint: '/unused',
        transport: 'ajax',
        customHandler: (_params, cb) => cb(null, { auth: `${key}:${'0'.repeat(64)}` }),
      },
    });
    clients.push(c);
    const ch = c.subscribe('private-support.chat.1');
    const err = await new Promise<{ status: number }>((resolve) => ch.bind('pusher:subscription_error', resolve));
    expect(err.status).toBe(401);
  });

  it('refuses invalid channel names', async () => {
    const raw = await RawClient.connect(t.port, key);
    for (const channel of ['', 'a b', 'x'.repeat(165), 'ünïcode', 'semi;colon?', 42, null]) {
      raw.send({ event: 'pusher:subscribe', data: { channel } });
      expect(errorMessage(await raw.next('pusher:error'))).toMatch(/channel name/i);
    }
    expect((await raw.subscribe(t.app.broadcaster, 'Ok_-=@,.;1')).event).toBe('pusher_internal:subscription_succeeded');
    await raw.close();
  });

  it('presence: one user with three sockets is one member; member_added on the first, member_removed after the last', async () => {
    const channel = 'presence-support.staff';
    const observer = await RawClient.connect(t.port, key);
    const sub = await observer.subscribe(t.app.broadcaster, channel, { user_id: '1', user_info: { name: 'Obs' } });
    expect(parseData<{ presence: { count: number } }>(sub).presence.count).toBe(1);

    const tabs = await Promise.all([0, 1, 2].map(() => RawClient.connect(t.port, key)));
    for (const tab of tabs) {
      const ok = await tab.subscribe(t.app.broadcaster, channel, { user_id: '2', user_info: { name: 'Ana' } });
      const presence = parseData<{ presence: { ids: string[]; hash: Record<string, unknown>; count: number } }>(ok).presence;
      expect(presence.count).toBe(2);
      expect(presence.ids.sort()).toEqual(['1', '2']);
      expect(presence.hash['2']).toEqual({ name: 'Ana' });
    }
    const added = await observer.next('pusher_internal:member_added');
    expect(parseData(added)).toEqual({ user_id: '2', user_info: { name: 'Ana' } });
    expect(await t.app.broadcaster.presenceMembers(channel)).toHaveLength(2);

    await tabs[0]!.close();
    tabs[1]!.send({ event: 'pusher:unsubscribe', data: { channel } });
    await tabs[1]!.roundTrip();
    await observer.roundTrip();
    expect(observer.pending('pusher_internal:member_added')).toHaveLength(0);
    expect(observer.pending('pusher_internal:member_removed')).toHaveLength(0);
    expect(await t.app.broadcaster.presenceMembers(channel)).toHaveLength(2);

    await tabs[2]!.close();
    expect(parseData(await observer.next('pusher_internal:member_removed'))).toEqual({ user_id: '2' });
    expect((await t.app.broadcaster.presenceMembers(channel)).map((m) => m.user_id)).toEqual(['1']);
    await tabs[1]!.close();
    await observer.close();
  });

  it('presence needs channel_data with a user_id', async () => {
    const raw = await RawClient.connect(t.port, key);
    const channel = 'presence-room';
    raw.send({ event: 'pusher:subscribe', data: { channel, auth: t.app.broadcaster.authorizeChannel(raw.socketId, channel).auth } });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ status: 400 });
    // Signed, but the data names no user.
    const bad = '{"user_info":{}}';
    const auth = `${key}:${channelSignature(t.config.realtime.secret, raw.socketId, channel, bad)}`;
    raw.send({ event: 'pusher:subscribe', data: { channel, auth, channel_data: bad } });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ status: 400 });
    // channel_data other than what was signed.
    const { auth: forOther } = t.app.broadcaster.authorizeChannel(raw.socketId, channel, { user_id: 'x' });
    raw.send({ event: 'pusher:subscribe', data: { channel, auth: forOther, channel_data: '{"user_id":"admin"}' } });
    expect((await raw.next('pusher:subscription_error')).data).toMatchObject({ status: 401 });
    await raw.close();
  });
});

describe('user authentication (pusher:signin)', () => {
  it('pusher-js signs in; the user channel is theirs only; terminateUserConnections closes their sockets', async () => {
    const c = client({ id: '42', info: { name: 'Eva' } });
    await connected(c);
    c.signin();
    await c.user.signinDonePromise;
    expect(c.user.user_data).toEqual({ id: '42', user_info: { name: 'Eva' } });
    // pusher-js subscribes to #server-to-user-42 after signing in; an event addressed to the user arrives.
    const got = new Promise((resolve) => c.user.bind('hello', resolve));
    await until(() => (t.app.realtime?.localSubscriberCount('#server-to-user-42') ?? 0) > 0);
    await t.app.broadcaster.trigger(['#server-to-user-42'], 'hello', { n: 1 });
    expect(await got).toEqual({ n: 1 });

    const other = await RawClient.connect(t.port, key);
    other.send({ event: 'pusher:subscribe', data: { channel: '#server-to-user-42' } });
    expect((await other.next('pusher:subscription_error')).data).toMatchObject({ status: 403 });

    // A raw socket of the same user, to read the close code pusher-js does not expose.
    const tab = await RawClient.connect(t.port, key);
    tab.send({ event: 'pusher:signin', data: t.app.broadcaster.authenticateUser(tab.socketId, { id: '42' }) });
    await tab.next('pusher:signin_success');
    const left = new Promise<string>((resolve) =>
      c.connection.bind('state_change', (s: { current: string }) => (s.current !== 'connected' ? resolve(s.current) : undefined)),
    );
    await t.app.broadcaster.terminateUserConnections('42');
    expect((await tab.closed).code).toBe(4009);
    expect(['disconnected', 'failed', 'unavailable']).toContain(await left);
    // Other users' sockets stay.
    await other.roundTrip();
    await other.close();
  });

  it('a bad signin signature is refused with 4009', async () => {
    const raw = await RawClient.connect(t.port, key);
    const good = signUser({ id: '1', key, secret: t.config.realtime.secret }, raw.socketId, { id: '5' });
    raw.send({ event: 'pusher:signin', data: { ...good, user_data: JSON.stringify({ id: '6' }) } });
    expect((await raw.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await raw.closed).code).toBe(4009);

    const raw2 = await RawClient.connect(t.port, key);
    raw2.send({ event: 'pusher:signin', data: t.app.broadcaster.authenticateUser(raw2.socketId, { id: '5' }) });
    expect(parseData<{ user_data: string }>(await raw2.next('pusher:signin_success')).user_data).toBe('{"id":"5"}');
    await raw2.close();
  });
});

describe('client events', () => {
  it('only on private and presence channels, only when subscribed, not echoed, user_id added on presence', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'news');
    a.send({ event: 'client-typing', channel: 'news', data: {} });
    expect(errorMessage(await a.next('pusher:error'))).toMatch(/private and presence/);
    a.send({ event: 'client-typing', channel: 'private-support.chat.9', data: {} });
    expect(errorMessage(await a.next('pusher:error'))).toMatch(/not subscribed/);

    await a.subscribe(t.app.broadcaster, 'private-support.chat.9');
    await b.subscribe(t.app.broadcaster, 'private-support.chat.9');
    a.send({ event: 'client-typing', channel: 'private-support.chat.9', data: { typing: true } });
    const got = await b.next('client-typing');
    expect(got).toEqual({ event: 'client-typing', channel: 'private-support.chat.9', data: { typing: true } });
    await a.roundTrip();
    expect(a.pending('client-typing')).toHaveLength(0);

    await a.subscribe(t.app.broadcaster, 'presence-chat.9', { user_id: '3' });
    await b.subscribe(t.app.broadcaster, 'presence-chat.9', { user_id: '4' });
    a.send({ event: 'client-typing', channel: 'presence-chat.9', data: { typing: false } });
    expect(await b.next((f) => f.event === 'client-typing' && f.channel === 'presence-chat.9')).toMatchObject({
      user_id: '3',
      data: { typing: false },
    });
    await Promise.all([a.close(), b.close()]);
  });

  it(`more than ${CLIENT_EVENTS_PER_SECOND} a second: pusher:error 4301, the rest dropped, the socket stays`, async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'private-burst');
    await b.subscribe(t.app.broadcaster, 'private-burst');
    for (let i = 0; i < CLIENT_EVENTS_PER_SECOND + 5; i++) a.send({ event: 'client-n', channel: 'private-burst', data: { i } });
    expect((await a.next('pusher:error')).data).toMatchObject({ code: 4301 });
    await a.roundTrip();
    await b.roundTrip();
    const received = b.pending('client-n').length;
    expect(received).toBeGreaterThanOrEqual(1);
    expect(received).toBeLessThanOrEqual(CLIENT_EVENTS_PER_SECOND);
    expect(a.ws.readyState).toBe(a.ws.OPEN);
    await Promise.all([a.close(), b.close()]);
  });

  it('Echo whispers reach the other side (listenForWhisper), not the sender', async () => {
    const makeEcho = (id: string) =>
      new Echo({
        broadcaster: 'pusher',
        key,
        cluster: 'local',
        wsHost: '127.0.0.1',
        wsPort: t.port,
        forceTLS: false,
        enabledTransports: ['ws'],
        withoutInterceptors: true,
        client: pusherJs(t.port, key, t.app.broadcaster, { id }),
      });
    const e1 = makeEcho('10');
    const e2 = makeEcho('11');
    try {
      const typing = new Promise((resolve) => e2.private('support.chat.77').listenForWhisper('typing', resolve));
      let echoed = 0;
      const ch1 = e1.private('support.chat.77').listenForWhisper('typing', () => echoed++);
      await until(() => (t.app.realtime?.localSubscriberCount('private-support.chat.77') ?? 0) === 2);
      ch1.whisper('typing', { name: 'Ana' });
      expect(await typing).toEqual({ name: 'Ana' });
      expect(echoed).toBe(0);
    } finally {
      e1.disconnect();
      e2.disconnect();
    }
  });
});

describe('robustness', () => {
  it(`a message over ${MAX_MESSAGE_BYTES} bytes gets pusher:error and the socket stays usable`, async () => {
    const raw = await RawClient.connect(t.port, key);
    raw.send({ event: 'pusher:ping', data: { pad: 'x'.repeat(MAX_MESSAGE_BYTES) } });
    expect(errorMessage(await raw.next('pusher:error'))).toMatch(/too large/);
    await raw.roundTrip();
    await raw.close();
  });

  it('unparsable JSON, a non-object, an unknown event and odd data get pusher:error, never a crash', async () => {
    const raw = await RawClient.connect(t.port, key);
    for (const bad of ['{not json', '[]', '"str"', 'null', '42', '{"event":"pusher:nothing"}', '{"event":{"x":1}}', '{}']) {
      raw.send(bad);
      expect((await raw.next('pusher:error')).event).toBe('pusher:error');
    }
    raw.ws.send(Buffer.from([0, 1, 2]), { binary: true });
    expect(errorMessage(await raw.next('pusher:error'))).toMatch(/Binary/);
    for (const odd of [
      { event: 'pusher:subscribe' },
      { event: 'pusher:subscribe', data: 'not json' },
      { event: 'pusher:unsubscribe', data: { channel: 7 } },
      { event: 'pusher:signin', data: { auth: 5 } },
    ])
      raw.send(odd);
    // The signin without a valid signature ends the socket (4009); everything before it was answered, not crashed on.
    expect((await raw.closed).code).toBe(4009);
    const again = await RawClient.connect(t.port, key);
    await again.roundTrip();
    await again.close();
  });

  it('a socket that stops reading what it is sent is closed with 4100 (back off, then reconnect); the others are served', async () => {
    const slow = await RawClient.connect(t.port, key);
    expect((await slow.subscribe(t.app.broadcaster, 'flood')).event).toBe('pusher_internal:subscription_succeeded');
    // A phone whose app froze: nothing is read from the socket, so the kernel's buffers fill, then the server's.
    const socket = (slow.ws as unknown as { _socket: net.Socket })._socket;
    socket.pause();
    const payload = 'x'.repeat(8 * 1024);
    // The server's side of that socket (the connections are private: read here only to know when to stop).
    const connections = (t.app.realtime as unknown as { connections: Map<string, { ws: { readyState: number } }> }).connections;
    const serverSide = connections.get(slow.socketId)!;
    // Written until the kernel's buffers and the server's 4 MB allowance are full and the server gives up on the socket
    // (at most 400 MB, if it never did).
    let sent = 0;
    while (serverSide.ws.readyState === WebSocket.OPEN && sent < 50_000) {
      await t.app.broadcaster.trigger(['flood'], 'big', payload);
      if (++sent % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(serverSide.ws.readyState).not.toBe(WebSocket.OPEN);
    const other = await RawClient.connect(t.port, key);
    await other.roundTrip();
    socket.resume();
    expect((await slow.closed).code).toBe(4100);
    await other.close();
  });
});

describe('HTTP events API (the official pusher SDK)', () => {
  const sdk = (secret = t.config.realtime.secret, appId = t.config.realtime.appId) =>
    new PusherServerSdk({ appId, key, secret, host: '127.0.0.1', port: String(t.port), useTLS: false });

  it('trigger and triggerBatch reach subscribers; socket_id is excluded; users of a presence channel are listed', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'orders');
    await b.subscribe(t.app.broadcaster, 'orders');
    const res = await sdk().trigger(['orders', 'elsewhere'], 'created', { id: 9 }, { socket_id: b.socketId });
    expect(res.status).toBe(200);
    expect(parseData(await a.next('created'))).toEqual({ id: 9 });
    await sdk().triggerBatch([
      { channel: 'orders', name: 'one', data: 'plain string' },
      { channel: 'orders', name: 'two', data: JSON.stringify({ n: 2 }) },
    ]);
    expect((await b.next('one')).data).toBe('plain string');
    expect(parseData(await b.next('two'))).toEqual({ n: 2 });
    expect(b.pending('created')).toHaveLength(0);

    await a.subscribe(t.app.broadcaster, 'presence-sdk', { user_id: '8' });
    const users = await sdk().get({ path: '/channels/presence-sdk/users' });
    expect(await users.json()).toEqual({ users: [{ id: '8' }] });
    await Promise.all([a.close(), b.close()]);
  });

  it('a bad signature, wrong key, stale timestamp or changed body answers 401; another app id 404; nothing is delivered', async () => {
    const a = await RawClient.connect(t.port, key);
    await a.subscribe(t.app.broadcaster, 'orders');
    await expect(sdk('wrong-secret').trigger('orders', 'evil', {})).rejects.toMatchObject({ status: 401 });
    await expect(sdk(undefined, '999').trigger('orders', 'evil', {})).rejects.toMatchObject({ status: 404 });

    // By hand: a correctly signed request whose body is then changed, and one signed long ago.
    const path = `/apps/${t.config.realtime.appId}/events`;
    const signed = (body: string, ts: number) => {
      const md5 = crypto.createHash('md5').update(body).digest('hex');
      const q = `auth_key=${key}&auth_timestamp=${ts}&auth_version=1.0&body_md5=${md5}`;
      const sig = crypto.createHmac('sha256', t.config.realtime.secret).update(`POST\n${path}\n${q}`).digest('hex');
      return `http://127.0.0.1:${t.port}${path}?${q}&auth_signature=${sig}`;
    };
    const body = JSON.stringify({ name: 'evil', channels: ['orders'], data: '{}' });
    const now = Math.floor(Date.now() / 1000);
    const post = (url: string, b: string) => fetch(url, { method: 'POST', body: b, headers: { 'content-type': 'application/json' } });
    expect((await post(signed(body, now), body.replace('evil', 'evil2'))).status).toBe(401);
    expect((await post(signed(body, now - 3600), body)).status).toBe(401);
    expect((await post(signed(body, now).replace(`auth_key=${key}`, 'auth_key=other'), body)).status).toBe(401);
    expect((await post(signed('{bad', now), '{bad')).status).toBe(400);
    const big = JSON.stringify({ name: 'big', channels: ['orders'], data: 'x'.repeat(MAX_MESSAGE_BYTES + 1) });
    expect((await post(signed(big, now), big)).status).toBe(413);
    const ok = await post(signed(body.replace('evil', 'fine'), now), body.replace('evil', 'fine'));
    expect(ok.status).toBe(200);
    await a.next('fine');
    expect(a.pending('evil')).toHaveLength(0);
    await a.close();
  });

  it('signatures match the SDK’s own authorizeChannel and authenticateUser', () => {
    const s = sdk();
    const member = { user_id: '5', user_info: { name: 'Ana' } };
    expect(t.app.broadcaster.authorizeChannel('1.2', 'private-a')).toEqual(s.authorizeChannel('1.2', 'private-a'));
    expect(t.app.broadcaster.authorizeChannel('1.2', 'presence-a', member)).toEqual(s.authorizeChannel('1.2', 'presence-a', member));
    expect(t.app.broadcaster.authenticateUser('1.2', { id: '5', user_info: { n: 1 } })).toEqual(
      s.authenticateUser('1.2', { id: '5', user_info: { n: 1 } }),
    );
  });
});

describe('laravel-echo', () => {
  it('listens on a public and a private channel, and joins presence with here/joining/leaving', async () => {
    const echo = (id: string, name: string) =>
      new Echo({
        broadcaster: 'pusher',
        key,
        cluster: 'local',
        withoutInterceptors: true,
        client: pusherJs(t.port, key, t.app.broadcaster, { id, info: { name } }),
      });
    const ana = echo('20', 'Ana');
    const bea = echo('21', 'Bea');
    try {
      const published = new Promise((resolve) => ana.channel('catalogue').listen('.ModelPublished', resolve));
      const notified = new Promise((resolve) => ana.private('App.Models.User.20').notification(resolve));
      await until(
        () =>
          (t.app.realtime?.localSubscriberCount('private-App.Models.User.20') ?? 0) === 1 &&
          (t.app.realtime?.localSubscriberCount('catalogue') ?? 0) === 1,
      );
      await t.app.broadcaster.trigger(['catalogue'], 'ModelPublished', { id: 3 });
      await t.app.broadcaster.trigger(['private-App.Models.User.20'], 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated', {
        id: 'n1',
        type: 'ad.approved',
      });
      expect(await published).toEqual({ id: 3 });
      expect(await notified).toMatchObject({ id: 'n1', type: 'ad.approved' });

      const here = new Promise<unknown[]>((resolve) => ana.join('support.staff').here(resolve));
      expect(await here).toEqual([{ name: 'Ana' }]);
      const joining = new Promise((resolve) => ana.join('support.staff').joining(resolve));
      const leaving = new Promise((resolve) => ana.join('support.staff').leaving(resolve));
      bea.join('support.staff');
      expect(await joining).toEqual({ name: 'Bea' });
      bea.leave('support.staff');
      expect(await leaving).toEqual({ name: 'Bea' });
    } finally {
      ana.disconnect();
      bea.disconnect();
    }
  });
});
