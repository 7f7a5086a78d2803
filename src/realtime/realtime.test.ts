import { describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from '#src/lib/api-client.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { channelAuthorizer, userAuthenticator, type Request } from './auth.ts';
import { echoOptions, type AuthHandlers } from './echo-options.ts';
import { RealtimeClient, type EchoClient } from './realtime-client.ts';

const settings = { key: 'app-key', host: '', port: 0, force_tls: false };
const handlers: AuthHandlers = { authorize: () => undefined, authenticate: () => undefined };

describe('echoOptions', () => {
  it('speaks websocket only to the page’s own host and port over plain ws on an http page', () => {
    const o = echoOptions(settings, { protocol: 'http:', hostname: 'localhost', port: '8080' }, handlers);
    expect(o).toMatchObject({ broadcaster: 'pusher', key: 'app-key', cluster: '', wsHost: 'localhost', wsPort: 8080 });
    expect(o.forceTLS).toBe(false);
    expect(o.enabledTransports).toEqual(['ws']);
    expect(o.disableStats).toBe(true);
    expect(o.channelAuthorization.customHandler).toBe(handlers.authorize);
    expect(o.userAuthentication.customHandler).toBe(handlers.authenticate);
  });

  it('forces TLS on an https page even when the server does not ask for it, on port 443 by default', () => {
    const o = echoOptions(settings, { protocol: 'https:', hostname: 'vitrina.example', port: '' }, handlers);
    expect(o.forceTLS).toBe(true);
    expect(o.enabledTransports).toEqual(['wss']);
    expect(o.wssPort).toBe(443);
  });

  it('uses the host and port the server names', () => {
    const o = echoOptions(
      { key: 'k', host: 'ws.vitrina.example', port: 6001, force_tls: true },
      { protocol: 'http:', hostname: 'localhost', port: '8080' },
      handlers,
    );
    expect(o).toMatchObject({ wsHost: 'ws.vitrina.example', wsPort: 6001, wssPort: 6001, forceTLS: true });
  });
});

describe('broadcasting auth through the fetch client', () => {
  const requestReturning = (data: unknown) => {
    const calls: [string, RequestOptions][] = [];
    const request: Request = <T>(path: string, opts: RequestOptions) => {
      calls.push([path, opts]);
      return Promise.resolve({ status: 200, data: data as T });
    };
    return { calls, request };
  };

  it('posts socket_id and channel_name form-encoded to /broadcasting/auth and hands pusher-js the signature', async () => {
    const { calls, request } = requestReturning({ auth: 'app-key:sig' });
    const callback = vi.fn();
    channelAuthorizer(request)({ socketId: '123.456', channelName: 'private-support.chat.7' }, callback);
    await vi.waitFor(() => expect(callback).toHaveBeenCalled());
    expect(calls).toHaveLength(1);
    const [path, opts] = calls[0]!;
    expect(path).toBe('/broadcasting/auth');
    expect(opts.method).toBe('POST');
    expect(opts.body).toBeInstanceOf(URLSearchParams);
    expect(String(opts.body)).toBe('socket_id=123.456&channel_name=private-support.chat.7');
    expect(callback).toHaveBeenCalledWith(null, { auth: 'app-key:sig' });
  });

  it('reports a refused authorization to pusher-js as an error', async () => {
    const request: Request = () => Promise.reject(new ApiError(403, undefined));
    const callback = vi.fn();
    channelAuthorizer(request)({ socketId: '1.2', channelName: 'private-App.Models.User.9' }, callback);
    await vi.waitFor(() => expect(callback).toHaveBeenCalled());
    expect(callback.mock.calls[0]![0]).toBeInstanceOf(ApiError);
    expect(callback.mock.calls[0]![1]).toBeNull();
  });

  it('posts socket_id to /broadcasting/user-auth for pusher:signin and refuses an answer without user_data', async () => {
    const ok = requestReturning({ auth: 'k:s', user_data: '{"id":"9"}' });
    const callback = vi.fn();
    userAuthenticator(ok.request)({ socketId: '1.2' }, callback);
    await vi.waitFor(() => expect(callback).toHaveBeenCalled());
    expect(ok.calls[0]![0]).toBe('/broadcasting/user-auth');
    expect(String(ok.calls[0]![1].body)).toBe('socket_id=1.2');
    expect(callback).toHaveBeenCalledWith(null, { auth: 'k:s', user_data: '{"id":"9"}' });

    const bad = requestReturning({ auth: 'k:s' });
    const refused = vi.fn();
    userAuthenticator(bad.request)({ socketId: '1.2' }, refused);
    await vi.waitFor(() => expect(refused).toHaveBeenCalled());
    expect(refused.mock.calls[0]![0]).toBeInstanceOf(Error);
  });
});

/** A stand-in for Echo over pusher-js: a connection whose state the test drives. */
function fakeEcho() {
  const bindings: ((change: { previous: string; current: string }) => void)[] = [];
  const connection = {
    state: 'connecting',
    socket_id: '',
    bind: (_event: string, cb: (change: { previous: string; current: string }) => void) => bindings.push(cb),
  };
  const echo = {
    connector: { pusher: { connection }, signin: vi.fn() },
    disconnect: vi.fn(),
    private: vi.fn(() => ({ name: 'channel' })),
    leaveChannel: vi.fn(),
  };
  const go = (current: string, socketId = '') => {
    const previous = connection.state;
    connection.state = current;
    connection.socket_id = socketId;
    bindings.forEach((cb) => cb({ previous, current }));
  };
  return { echo, go, client: echo as unknown as EchoClient };
}

function clientWith(echos: ReturnType<typeof fakeEcho>[]) {
  const setSocketId = vi.fn();
  const createEcho = vi.fn(() => Promise.resolve(echos.shift()!.client));
  const client = new RealtimeClient({ loadSettings: () => Promise.resolve(settings), createEcho, setSocketId });
  return { client, setSocketId, createEcho };
}

describe('RealtimeClient', () => {
  it('signs in, and gives the fetch client the socket id only while connected', async () => {
    const a = fakeEcho();
    const { client, setSocketId } = clientWith([a]);
    await client.start(9);
    expect(a.echo.connector.signin).toHaveBeenCalledOnce();
    a.go('connected', '11.22');
    expect(client.getSnapshot().state).toBe('connected');
    expect(setSocketId).toHaveBeenLastCalledWith('11.22');
    a.go('unavailable');
    expect(client.getSnapshot().state).toBe('unavailable');
    expect(setSocketId).toHaveBeenLastCalledWith(undefined);
  });

  it('runs the catch-up callbacks after every reconnection, not on the first connection', async () => {
    const a = fakeEcho();
    const { client } = clientWith([a]);
    const catchUp = vi.fn();
    client.onReconnect(catchUp);
    await client.start(9);
    a.go('connected', '1.1');
    expect(catchUp).not.toHaveBeenCalled();
    a.go('unavailable');
    a.go('connecting');
    a.go('connected', '1.2');
    expect(catchUp).toHaveBeenCalledTimes(1);
    a.go('disconnected');
    a.go('connected', '1.3');
    expect(catchUp).toHaveBeenCalledTimes(2);
  });

  it('replaces the connection when another user signs in, and closes it on sign-out', async () => {
    const a = fakeEcho();
    const b = fakeEcho();
    const { client, createEcho, setSocketId } = clientWith([a, b]);
    await client.start(9);
    await client.start(9);
    expect(createEcho).toHaveBeenCalledOnce();
    await client.start(10);
    expect(a.echo.disconnect).toHaveBeenCalledOnce();
    expect(createEcho).toHaveBeenCalledTimes(2);
    expect(client.getSnapshot()).toMatchObject({ userId: 10, echo: b.client });
    // The old connection's late events change nothing.
    a.go('connected', '9.9');
    expect(setSocketId).not.toHaveBeenCalledWith('9.9');
    client.stop();
    expect(b.echo.disconnect).toHaveBeenCalledOnce();
    expect(client.getSnapshot()).toMatchObject({ echo: null, state: 'off', userId: null });
  });

  it('drops a connection that finished opening after the user signed out', async () => {
    const a = fakeEcho();
    let resolve!: (settingsValue: typeof settings) => void;
    const client = new RealtimeClient({
      loadSettings: () => new Promise((r) => (resolve = r)),
      createEcho: () => Promise.resolve(a.client),
      setSocketId: vi.fn(),
    });
    const starting = client.start(9);
    client.stop();
    resolve(settings);
    await starting;
    expect(client.getSnapshot().echo).toBeNull();
  });

  it('stays off when the server has no realtime settings', async () => {
    const client = new RealtimeClient({
      loadSettings: () => Promise.resolve(null),
      createEcho: () => Promise.reject(new Error('not called')),
      setSocketId: vi.fn(),
    });
    await client.start(9);
    expect(client.getSnapshot().state).toBe('off');
  });

  it('leaves a shared channel only when its last user releases it', async () => {
    const a = fakeEcho();
    const { client } = clientWith([a]);
    await client.start(9);
    client.acquirePrivate('support.chat.1');
    client.acquirePrivate('support.chat.1');
    client.release('support.chat.1');
    expect(a.echo.leaveChannel).not.toHaveBeenCalled();
    client.release('support.chat.1');
    expect(a.echo.leaveChannel).toHaveBeenCalledWith('private-support.chat.1');
  });
});
