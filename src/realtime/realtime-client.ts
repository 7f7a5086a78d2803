/**
 * The one realtime connection of the tab: a laravel-echo instance over pusher-js, created lazily for a signed-in
 * user (visitors open no websocket) and replaced when the session changes, so every private channel is authorized
 * again for the new user. pusher-js reconnects by itself with back-off; this surfaces its state, tells the fetch
 * client the socket id while connected (`X-Socket-ID`, for `toOthers`), and after every reconnection calls the
 * catch-up callbacks: the protocol is fire-and-forget, so what was broadcast while the socket was down is fetched.
 */
import type Echo from 'laravel-echo';
import { publicConfigSchema } from '#contract/config.ts';
import { API } from '#contract/routes.ts';
import { apiGet, setSocketId } from '#src/lib/api-client.ts';
import { channelAuthorizer, userAuthenticator } from './auth.ts';
import { echoOptions, type RealtimeSettings } from './echo-options.ts';

/** pusher-js's connection states, plus `off` (no connection wanted, or realtime not configured on the server). */
export type ConnectionState = 'off' | 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'failed' | 'disconnected';

export type EchoClient = Echo<'pusher'>;
type PusherChannel = ReturnType<EchoClient['private']>;
type PresenceChannel = ReturnType<EchoClient['join']>;

export interface RealtimeSnapshot {
  echo: EchoClient | null;
  state: ConnectionState;
  userId: number | null;
}

export interface RealtimeDeps {
  /** The server's realtime settings; null when it has none. */
  loadSettings: () => Promise<RealtimeSettings | null>;
  createEcho: (settings: RealtimeSettings) => Promise<EchoClient>;
  setSocketId: (id: string | undefined) => void;
}

interface ConnectionLike {
  state: string;
  socket_id: string;
  bind: (event: string, cb: (change: { previous: string; current: string }) => void) => void;
}

const connectionOf = (echo: EchoClient) => echo.connector.pusher.connection as unknown as ConnectionLike;

export class RealtimeClient {
  private snapshot: RealtimeSnapshot = { echo: null, state: 'off', userId: null };
  private generation = 0;
  private everConnected = false;
  private readonly listeners = new Set<() => void>();
  private readonly catchUps = new Set<() => void>();
  private readonly refs = new Map<string, number>();

  constructor(private readonly deps: RealtimeDeps) {}

  getSnapshot = (): RealtimeSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<RealtimeSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    this.listeners.forEach((l) => l());
  }

  /** Connects for this user; a different user than the current one first ends the old connection. */
  async start(userId: number): Promise<void> {
    if (this.snapshot.userId === userId) return;
    this.stop();
    const generation = this.generation;
    this.set({ userId, state: 'connecting' });
    const settings = await this.deps.loadSettings().catch(() => null);
    if (generation !== this.generation) return;
    if (!settings) {
      this.set({ state: 'off' });
      return;
    }
    const echo = await this.deps.createEcho(settings);
    if (generation !== this.generation) {
      echo.disconnect();
      return;
    }
    const connection = connectionOf(echo);
    connection.bind('state_change', ({ current }) => {
      if (generation === this.generation) this.onState(current, connection.socket_id);
    });
    // pusher:signin tells the server whose socket this is (it ends a suspended user's sockets); pusher-js signs in
    // again by itself after each reconnection.
    echo.connector.signin();
    this.set({ echo });
    this.onState(connection.state, connection.socket_id);
  }

  /** Ends the connection (sign-out, or before connecting as someone else). */
  stop() {
    this.generation += 1;
    const { echo } = this.snapshot;
    this.everConnected = false;
    this.refs.clear();
    this.deps.setSocketId(undefined);
    this.set({ echo: null, state: 'off', userId: null });
    echo?.disconnect();
  }

  private onState(current: string, socketId: string | undefined) {
    if (current === 'connected') {
      this.deps.setSocketId(socketId);
      const reconnected = this.everConnected;
      this.everConnected = true;
      this.set({ state: 'connected' });
      if (reconnected) this.runCatchUps();
    } else {
      this.deps.setSocketId(undefined);
      this.set({ state: current as ConnectionState });
    }
  }

  /** Runs every catch-up callback (after a reconnection, or when a sleeping page wakes up). */
  runCatchUps() {
    for (const cb of [...this.catchUps]) {
      try {
        cb();
      } catch {
        // One consumer's failure must not keep the others from catching up.
      }
    }
  }

  /** Registers what to fetch again after a reconnection; returns the unregistration. */
  onReconnect(cb: () => void): () => void {
    this.catchUps.add(cb);
    return () => this.catchUps.delete(cb);
  }

  /** A private channel shared by the components that use it; `release` leaves it once nobody does. */
  acquirePrivate(name: string): PusherChannel | null {
    const { echo } = this.snapshot;
    if (!echo) return null;
    this.refs.set(name, (this.refs.get(name) ?? 0) + 1);
    return echo.private(name);
  }

  acquirePresence(name: string): PresenceChannel | null {
    const { echo } = this.snapshot;
    if (!echo) return null;
    this.refs.set(`presence:${name}`, (this.refs.get(`presence:${name}`) ?? 0) + 1);
    return echo.join(name);
  }

  release(name: string, kind: 'private' | 'presence' = 'private', echo: EchoClient | null = this.snapshot.echo) {
    // A channel of a connection that has since been replaced went with it.
    if (!echo || echo !== this.snapshot.echo) return;
    const key = kind === 'presence' ? `presence:${name}` : name;
    const count = (this.refs.get(key) ?? 0) - 1;
    if (count > 0) {
      this.refs.set(key, count);
      return;
    }
    this.refs.delete(key);
    echo.leaveChannel(kind === 'presence' ? `presence-${name}` : `private-${name}`);
  }
}

async function loadSettings(): Promise<RealtimeSettings | null> {
  const config = publicConfigSchema.parse(await apiGet<unknown>(API.config));
  return config.realtime;
}

async function createEcho(settings: RealtimeSettings): Promise<EchoClient> {
  const [{ default: EchoClass }, { default: Pusher }] = await Promise.all([import('laravel-echo'), import('pusher-js')]);
  const options = echoOptions(settings, window.location, { authorize: channelAuthorizer(), authenticate: userAuthenticator() });
  return new EchoClass({ ...options, enabledTransports: [...options.enabledTransports], Pusher });
}

/** The tab's connection. */
export const realtime = new RealtimeClient({ loadSettings, createEcho, setSocketId });
