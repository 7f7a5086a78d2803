import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '#contract/routes.ts';

const apiGet = vi.fn<(path: string) => Promise<unknown>>();
const apiRequest = vi.fn<(path: string, init: unknown) => Promise<unknown>>();
vi.mock('#src/lib/api-client.ts', () => ({
  apiGet: (path: string) => apiGet(path),
  apiRequest: (path: string, init: unknown) => apiRequest(path, init),
}));
const { pushSupport, subscribeThisDevice, unsubscribeThisDevice, forgetPushOnSignOut, removeDevice } = await import('./push-client.ts');

// 'AQID' is base64url for the bytes 1, 2, 3; 'BAUG' for 4, 5, 6.
const config = (key: string) => ({ app_name: 'Vitrina', languages: ['es'], realtime: null, push: { vapid_public_key: key } });

type FakeSub = {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  toJSON: () => unknown;
  unsubscribe: ReturnType<typeof vi.fn>;
};
const makeSub = (endpoint: string, key: number[]): FakeSub => ({
  endpoint,
  options: { applicationServerKey: new Uint8Array(key).buffer },
  toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } }),
  unsubscribe: vi.fn(async () => true),
});

let current: FakeSub | null;
let permissionAnswer: NotificationPermission;
const subscribe = vi.fn(async (opts: { applicationServerKey: Uint8Array }) => {
  current = makeSub('https://push.example/new', [...opts.applicationServerKey]);
  return current;
});

function installPush() {
  current = null;
  permissionAnswer = 'granted';
  const pushManager = { getSubscription: async () => current, subscribe };
  Object.defineProperty(navigator, 'serviceWorker', { value: { ready: Promise.resolve({ pushManager }) }, configurable: true });
  Object.defineProperty(window, 'PushManager', { value: function PushManager() {}, configurable: true });
  Object.defineProperty(window, 'Notification', {
    value: { permission: 'default', requestPermission: vi.fn(async () => permissionAnswer) },
    configurable: true,
  });
}

function removePush() {
  for (const [target, name] of [
    [navigator, 'serviceWorker'],
    [window, 'PushManager'],
    [window, 'Notification'],
  ] as const)
    Reflect.deleteProperty(target, name);
}

beforeEach(() => {
  apiGet.mockReset().mockResolvedValue(config('AQID'));
  apiRequest.mockReset().mockResolvedValue({ data: {} });
  subscribe.mockClear();
  installPush();
});
afterEach(() => {
  removePush();
  vi.restoreAllMocks();
});

describe('pushSupport', () => {
  it('is supported with a service worker, PushManager and Notification', () => {
    expect(pushSupport()).toBe('supported');
  });

  it('asks for the home screen in iOS Safari outside the installed app, where there is no PushManager', () => {
    removePush();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    );
    expect(pushSupport()).toBe('needs-install');
  });

  it('is unsupported in a browser without Web Push that is not iOS Safari', () => {
    removePush();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (X11; Linux x86_64) Firefox/115.0');
    expect(pushSupport()).toBe('unsupported');
  });
});

describe('subscribeThisDevice', () => {
  it('subscribes with the VAPID key from the configuration and stores the subscription as it serialises', async () => {
    await expect(subscribeThisDevice()).resolves.toBe('on');
    expect(apiGet).toHaveBeenCalledWith(API.config);
    expect(subscribe).toHaveBeenCalledTimes(1);
    const opts = subscribe.mock.calls[0]![0] as { userVisibleOnly: boolean; applicationServerKey: Uint8Array };
    expect(opts.userVisibleOnly).toBe(true);
    expect([...opts.applicationServerKey]).toEqual([1, 2, 3]);
    expect(apiRequest).toHaveBeenCalledWith(API.pushSubscriptions, {
      method: 'POST',
      body: { endpoint: 'https://push.example/new', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } },
    });
  });

  it('subscribes nothing and stores nothing when the user refuses the permission', async () => {
    permissionAnswer = 'denied';
    await expect(subscribeThisDevice()).resolves.toBe('denied');
    expect(subscribe).not.toHaveBeenCalled();
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('keeps a subscription made with the same key', async () => {
    const old = makeSub('https://push.example/old', [1, 2, 3]);
    current = old;
    await subscribeThisDevice();
    expect(subscribe).not.toHaveBeenCalled();
    expect(old.unsubscribe).not.toHaveBeenCalled();
    expect(apiRequest).toHaveBeenCalledWith(API.pushSubscriptions, expect.objectContaining({ method: 'POST' }));
  });

  it('subscribes again when the server’s key changed', async () => {
    const old = makeSub('https://push.example/old', [4, 5, 6]);
    current = old;
    await subscribeThisDevice();
    expect(old.unsubscribe).toHaveBeenCalled();
    expect(subscribe).toHaveBeenCalledTimes(1);
    const body = (apiRequest.mock.calls[0]![1] as { body: { endpoint: string } }).body;
    expect(body.endpoint).toBe('https://push.example/new');
  });
});

describe('unsubscribeThisDevice', () => {
  it('tells the server the endpoint and drops the browser’s subscription', async () => {
    const sub = makeSub('https://push.example/mine', [1, 2, 3]);
    current = sub;
    await unsubscribeThisDevice();
    expect(apiRequest).toHaveBeenCalledWith(API.pushSubscriptions, { method: 'DELETE', body: { endpoint: 'https://push.example/mine' } });
    expect(sub.unsubscribe).toHaveBeenCalled();
  });

  it('still drops the browser’s subscription when the server cannot be reached', async () => {
    const sub = makeSub('https://push.example/mine', [1, 2, 3]);
    current = sub;
    apiRequest.mockRejectedValue(new Error('offline'));
    await unsubscribeThisDevice();
    expect(sub.unsubscribe).toHaveBeenCalled();
  });
});

describe('removeDevice', () => {
  it('removing this device from the list also drops the browser’s subscription (its switch then says off)', async () => {
    const sub = makeSub('https://push.example/mine', [1, 2, 3]);
    current = sub;
    await removeDevice({ id: 7, current: true });
    expect(apiRequest).toHaveBeenCalledWith(API.pushSubscription(7), { method: 'DELETE' });
    expect(sub.unsubscribe).toHaveBeenCalled();
  });

  it('removing another device leaves this one subscribed', async () => {
    const sub = makeSub('https://push.example/mine', [1, 2, 3]);
    current = sub;
    await removeDevice({ id: 8, current: false });
    expect(apiRequest).toHaveBeenCalledWith(API.pushSubscription(8), { method: 'DELETE' });
    expect(sub.unsubscribe).not.toHaveBeenCalled();
  });
});

describe('forgetPushOnSignOut', () => {
  it('never holds the sign-out for long when the server does not answer', async () => {
    vi.useFakeTimers();
    try {
      current = makeSub('https://push.example/mine', [1, 2, 3]);
      apiRequest.mockReturnValue(new Promise(() => undefined));
      let done = false;
      void forgetPushOnSignOut().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(1600);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
