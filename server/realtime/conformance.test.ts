/**
 * Pusher protocol v7 conformance of the embedded server, driven by the real pusher-js and laravel-echo (Node builds)
 * and, for what they never send (bad JSON, forged signatures, oversize frames), by a raw `ws` client.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import PusherServerSdk from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChannel, signUser } from './embedded-driver.ts';
import {
  CLIENT_EVENTS_PER_SECOND,
  DEFAULT_MAX_CHANNELS_PER_CONNECTION,
  MAX_CLIENT_EVENT_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_PRESENCE_MEMBERS,
  channelSignature,
} from './protocol.ts';
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

  it('refuses invalid channel names: a subscription_error naming the channel, pusher:error when there is no name', async () => {
    const raw = await RawClient.connect(t.port, key);
    for (const channel of ['a b', 'x'.repeat(165), 'ünïcode', 'semi;colon?']) {
      raw.send({ event: 'pusher:subscribe', data: { channel } });
      const refused = await raw.next('pusher:subscription_error');
      expect(refused.channel).toBe(channel);
      expect(refused.data).toMatchObject({ type: 'InvalidChannel', error: expect.stringMatching(/channel name/i) as unknown });
    }
    for (const channel of ['', 42, null]) {
      raw.send({ event: 'pusher:subscribe', data: { channel } });
      expect(errorMessage(await raw.next('pusher:error'))).toMatch(/channel name/i);
    }
    expect((await raw.subscribe(t.app.broadcaster, 'Ok_-=@,.;1')).event).toBe('pusher_internal:subscription_succeeded');
    await raw.close();
  });

  it('pusher-js hears the refusal of a channel name over 164 characters (it used to wait forever)', async () => {
    const c = client();
    await connected(c);
    const err = await subscribed(c.subscribe(`long-${'x'.repeat(160)}`)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ type: 'InvalidChannel', status: 400 });
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

    await a.subscribe(t.app.broadcaster, 'private-support.chat.9', { user_id: '3', user_info: { name: 'Ana' } });
    await b.subscribe(t.app.broadcaster, 'private-support.chat.9', { user_id: '4', user_info: { name: 'Soporte' } });
    a.send({ event: 'client-typing', channel: 'private-support.chat.9', data: { typing: true } });
    const got = await b.next('client-typing');
    expect(got).toEqual({
      event: 'client-typing',
      channel: 'private-support.chat.9',
      data: { typing: true, user_id: '3', name: 'Ana' },
      user_id: '3',
    });
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
      ch1.whisper('typing', { typing: true });
      expect(await typing).toEqual({ typing: true, user_id: '10' });
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

describe('limits (issue 24 point 1)', () => {
  it(`a connection holds at most ${DEFAULT_MAX_CHANNELS_PER_CONNECTION} channels: the next is refused naming it; leaving one makes room`, async () => {
    const raw = await RawClient.connect(t.port, key);
    for (let i = 0; i < DEFAULT_MAX_CHANNELS_PER_CONNECTION; i++) raw.send({ event: 'pusher:subscribe', data: { channel: `many-${i}` } });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'one-too-many' } });
    const refused = await raw.next('pusher:subscription_error');
    expect(refused.channel).toBe('one-too-many');
    expect(refused.data).toMatchObject({ type: 'LimitReached', status: 429 });
    expect(raw.pending('pusher_internal:subscription_succeeded')).toHaveLength(DEFAULT_MAX_CHANNELS_PER_CONNECTION);
    expect(t.app.realtime?.localSubscriberCount('one-too-many')).toBe(0);
    raw.send({ event: 'pusher:unsubscribe', data: { channel: 'many-0' } });
    expect((await raw.subscribe(t.app.broadcaster, 'one-too-many')).event).toBe('pusher_internal:subscription_succeeded');
    await raw.close();
  });

  it(`a presence channel takes at most ${MAX_PRESENCE_MEMBERS} members; another socket of a member still joins`, async () => {
    const channel = 'presence-crowd';
    const sockets = await Promise.all(Array.from({ length: MAX_PRESENCE_MEMBERS + 1 }, () => RawClient.connect(t.port, key)));
    for (let i = 0; i < MAX_PRESENCE_MEMBERS; i++)
      expect((await sockets[i]!.subscribe(t.app.broadcaster, channel, { user_id: `m${i}` })).event).toBe(
        'pusher_internal:subscription_succeeded',
      );
    const late = sockets[MAX_PRESENCE_MEMBERS]!;
    const refused = await late.subscribe(t.app.broadcaster, channel, { user_id: 'one-more' });
    expect(refused).toMatchObject({ event: 'pusher:subscription_error', channel, data: { type: 'LimitReached' } });
    expect((await t.app.broadcaster.presenceMembers(channel)).map((m) => m.user_id)).not.toContain('one-more');
    // A second tab of someone already there is no new member.
    expect((await late.subscribe(t.app.broadcaster, channel, { user_id: 'm3' })).event).toBe('pusher_internal:subscription_succeeded');
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('a presence user_info over 1 KB is refused', async () => {
    const raw = await RawClient.connect(t.port, key);
    const refused = await raw.subscribe(t.app.broadcaster, 'presence-big', { user_id: '1', user_info: { name: 'x'.repeat(1100) } });
    expect(refused).toMatchObject({ event: 'pusher:subscription_error', channel: 'presence-big', data: { type: 'LimitReached' } });
    expect(await t.app.broadcaster.presenceMembers('presence-big')).toEqual([]);
    const ok = await raw.subscribe(t.app.broadcaster, 'presence-big', { user_id: '1', user_info: { name: 'x'.repeat(900) } });
    expect(ok.event).toBe('pusher_internal:subscription_succeeded');
    await raw.close();
  });

  describe('PUSHER_MAX_CHANNELS', () => {
    let small: ListeningApp;
    beforeAll(async () => {
      small = await listeningApp({ maxChannels: 3, maxChannelsPerConnection: 2 });
    }, 180_000);
    afterAll(async () => small?.close());

    it('caps the distinct channels a process holds (existing ones still take subscribers) and the per-connection setting applies', async () => {
      const k = small.config.realtime.key;
      const [a, b] = await Promise.all([RawClient.connect(small.port, k), RawClient.connect(small.port, k)]);
      expect((await a.subscribe(small.app.broadcaster, 'c1')).event).toBe('pusher_internal:subscription_succeeded');
      expect((await a.subscribe(small.app.broadcaster, 'c2')).event).toBe('pusher_internal:subscription_succeeded');
      expect((await a.subscribe(small.app.broadcaster, 'c3')).data).toMatchObject({ type: 'LimitReached', status: 429 });
      expect((await b.subscribe(small.app.broadcaster, 'c3')).event).toBe('pusher_internal:subscription_succeeded');
      const full = await b.subscribe(small.app.broadcaster, 'c4');
      expect(full).toMatchObject({ event: 'pusher:subscription_error', channel: 'c4', data: { type: 'OverCapacity', status: 503 } });
      expect((await b.subscribe(small.app.broadcaster, 'c1')).event).toBe('pusher_internal:subscription_succeeded');
      // A channel freed by its last subscriber makes room.
      b.send({ event: 'pusher:unsubscribe', data: { channel: 'c3' } });
      expect((await a.subscribe(small.app.broadcaster, 'c4')).data).toMatchObject({ type: 'LimitReached' });
      a.send({ event: 'pusher:unsubscribe', data: { channel: 'c2' } });
      expect((await a.subscribe(small.app.broadcaster, 'c4')).event).toBe('pusher_internal:subscription_succeeded');
      await Promise.all([a.close(), b.close()]);
    });
  });
});

describe('client events carry the sender the server knows (issue 24 point 3)', () => {
  it('on a private channel bound to a user: user_id and name are the server’s, whatever the client wrote', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'private-support.chat.31', { user_id: '7', user_info: { name: 'Lucía', role: 'model' } });
    await b.subscribe(t.app.broadcaster, 'private-support.chat.31', { user_id: '1', user_info: { name: 'Soporte', role: 'admin' } });
    a.send({
      event: 'client-typing',
      channel: 'private-support.chat.31',
      data: { user_id: 1, name: 'Soporte Vitrina', typing: true },
    });
    expect(await b.next('client-typing')).toEqual({
      event: 'client-typing',
      channel: 'private-support.chat.31',
      data: { user_id: '7', name: 'Lucía', typing: true },
      user_id: '7',
    });
    await Promise.all([a.close(), b.close()]);
  });

  it('a support chat drops whispers from a subscription that names nobody (the app never signs one)', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'private-support.chat.32');
    await b.subscribe(t.app.broadcaster, 'private-support.chat.32', { user_id: '1', user_info: { name: 'Soporte' } });
    a.send({ event: 'client-typing', channel: 'private-support.chat.32', data: { user_id: 1, name: 'Soporte', typing: true } });
    expect(errorMessage(await a.next('pusher:error'))).toMatch(/name who sends/);
    await b.roundTrip();
    expect(b.pending('client-typing')).toHaveLength(0);
    await Promise.all([a.close(), b.close()]);
  });

  it(`${CLIENT_EVENTS_PER_SECOND} a second per user, however many sockets they open`, async () => {
    const listener = await RawClient.connect(t.port, key);
    await listener.subscribe(t.app.broadcaster, 'private-support.chat.33', { user_id: '1' });
    const senders = await Promise.all(Array.from({ length: 4 }, () => RawClient.connect(t.port, key)));
    for (const s of senders) await s.subscribe(t.app.broadcaster, 'private-support.chat.33', { user_id: '9', user_info: { name: 'X' } });
    for (const s of senders)
      for (let i = 0; i < 5; i++) s.send({ event: 'client-typing', channel: 'private-support.chat.33', data: { i } });
    for (const s of senders) await s.roundTrip();
    await listener.roundTrip();
    const received = listener.pending('client-typing').length;
    expect(received).toBeGreaterThanOrEqual(1);
    expect(received).toBeLessThanOrEqual(CLIENT_EVENTS_PER_SECOND);
    const refused = senders.flatMap((s) => s.pending('pusher:error')).filter((f) => (f.data as { code?: number }).code === 4301);
    expect(refused.length).toBeGreaterThanOrEqual(20 - CLIENT_EVENTS_PER_SECOND);
    await Promise.all([listener, ...senders].map((s) => s.close()));
  });

  it(`client event data over ${MAX_CLIENT_EVENT_BYTES} bytes is refused`, async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'private-support.chat.34', { user_id: '7' });
    await b.subscribe(t.app.broadcaster, 'private-support.chat.34', { user_id: '1' });
    a.send({ event: 'client-typing', channel: 'private-support.chat.34', data: { typing: true, pad: 'x'.repeat(MAX_CLIENT_EVENT_BYTES) } });
    expect(errorMessage(await a.next('pusher:error'))).toMatch(/over 1024 bytes/);
    a.send({ event: 'client-typing', channel: 'private-support.chat.34', data: { typing: true } });
    expect((await b.next('client-typing')).data).toMatchObject({ typing: true });
    expect(b.pending('client-typing')).toHaveLength(0);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('HTTP API: channel queries and info (issue 24 point 4)', () => {
  const sdk = () =>
    new PusherServerSdk({
      appId: t.config.realtime.appId,
      key,
      secret: t.config.realtime.secret,
      host: '127.0.0.1',
      port: String(t.port),
      useTLS: false,
    });

  it('GET /channels (filter_by_prefix, info) and /channels/{name} answer as Pusher documents', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'q-orders');
    await b.subscribe(t.app.broadcaster, 'q-orders');
    await a.subscribe(t.app.broadcaster, 'presence-q-room', { user_id: '1' });
    await b.subscribe(t.app.broadcaster, 'presence-q-room', { user_id: '2' });

    const all = (await (await sdk().get({ path: '/channels' })).json()) as { channels: object };
    expect(all.channels).toMatchObject({ 'q-orders': {}, 'presence-q-room': {} });
    const some: unknown = await (
      await sdk().get({ path: '/channels', params: { filter_by_prefix: 'q-', info: 'subscription_count' } })
    ).json();
    expect(some).toEqual({ channels: { 'q-orders': { subscription_count: 2 } } });
    const presence: unknown = await (
      await sdk().get({ path: '/channels', params: { filter_by_prefix: 'presence-q', info: 'user_count' } })
    ).json();
    expect(presence).toEqual({ channels: { 'presence-q-room': { user_count: 2 } } });
    // user_count only for presence channels; an unknown attribute is malformed.
    await expect(sdk().get({ path: '/channels', params: { filter_by_prefix: 'q-', info: 'user_count' } })).rejects.toMatchObject({
      status: 400,
    });
    await expect(sdk().get({ path: '/channels', params: { info: 'everything' } })).rejects.toMatchObject({ status: 400 });

    const one: unknown = await (
      await sdk().get({ path: '/channels/presence-q-room', params: { info: 'user_count,subscription_count' } })
    ).json();
    expect(one).toEqual({ occupied: true, user_count: 2, subscription_count: 2 });
    expect(await (await sdk().get({ path: '/channels/q-orders' })).json()).toEqual({ occupied: true });
    expect(await (await sdk().get({ path: '/channels/q-nobody', params: { info: 'subscription_count' } })).json()).toEqual({
      occupied: false,
      subscription_count: 0,
    });
    await expect(sdk().get({ path: '/channels/q-orders', params: { info: 'user_count' } })).rejects.toMatchObject({ status: 400 });
    await Promise.all([a.close(), b.close()]);
  });

  it('info on POST /events and /batch_events is answered with the counts; a malformed info is 400 and nothing is sent', async () => {
    const [a, b] = await Promise.all([RawClient.connect(t.port, key), RawClient.connect(t.port, key)]);
    await a.subscribe(t.app.broadcaster, 'presence-q-info', { user_id: '1' });
    await b.subscribe(t.app.broadcaster, 'presence-q-info', { user_id: '1' });
    await a.subscribe(t.app.broadcaster, 'q-info');
    const res = await sdk().trigger(['presence-q-info', 'q-info'], 'counted', {}, { info: 'user_count,subscription_count' });
    expect(await res.json()).toEqual({
      channels: { 'presence-q-info': { user_count: 1, subscription_count: 2 }, 'q-info': { subscription_count: 1 } },
    });
    const batch = await sdk().triggerBatch([
      { channel: 'presence-q-info', name: 'one', data: '1', info: 'user_count' },
      { channel: 'q-info', name: 'two', data: '2', info: 'subscription_count' },
    ]);
    expect(await batch.json()).toEqual({ batch: [{ user_count: 1 }, { subscription_count: 1 }] });
    await expect(sdk().trigger('q-info', 'bad', {}, { info: 'user_count,nonsense' })).rejects.toMatchObject({ status: 400 });
    await a.next('two');
    await a.roundTrip();
    expect(a.pending('bad')).toHaveLength(0);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('HTTP API: anything else under /apps is a JSON 404, never the PWA (issue 24 point 4)', () => {
  let withPwa: ListeningApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-apps-404-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Vitrina</title>');
    withPwa = await listeningApp({}, { distDir });
  }, 180_000);
  afterAll(async () => {
    await withPwa?.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('signed (the SDK’s get) or not', async () => {
    const { appId, secret } = withPwa.config.realtime;
    const k = withPwa.config.realtime.key;
    // The PWA is served here: a page path gets its HTML.
    expect((await fetch(`http://127.0.0.1:${withPwa.port}/es/some/page`)).headers.get('content-type')).toMatch(/text\/html/);
    const s = new PusherServerSdk({ appId, key: k, secret, host: '127.0.0.1', port: String(withPwa.port), useTLS: false });
    await expect(s.get({ path: '/nonsense' })).rejects.toMatchObject({ status: 404 });
    await expect(s.get({ path: '/channels/news/members' })).rejects.toMatchObject({ status: 404 });
    for (const p of [`/apps/${appId}/whatever`, '/apps/1/channels/x/y/z', '/apps', '/apps/']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await fetch(`http://127.0.0.1:${withPwa.port}${p}`, { method });
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(res.headers.get('content-type'), `${method} ${p}`).toMatch(/application\/json/);
      }
    }
  });
});
