/**
 * Pusher's signed HTTP API on the embedded server, so that the official `pusher` SDK (and so the `pusher` driver of
 * another Vitrina process, or any Laravel app) can trigger into it:
 *   POST /apps/{app_id}/events, POST /apps/{app_id}/batch_events (both with `info`: the channels' counts),
 *   GET  /apps/{app_id}/channels (filter_by_prefix, info), GET /apps/{app_id}/channels/{channel} (info),
 *   GET  /apps/{app_id}/channels/{channel}/users, POST /apps/{app_id}/users/{user_id}/terminate_connections.
 * Any other path under /apps answers a JSON 404 (never the PWA's page), signed or not: plugins/spa.ts leaves /apps alone.
 *
 * Counts: `user_count` (presence channels only, as Pusher documents) is counted across processes through the
 * adapter; `subscription_count` and non-presence occupancy are this process's sockets (with REDIS_URL and several
 * processes, each answers for its own: see docs/deployment.md).
 *
 * Every request is signed: `auth_signature = HMAC-SHA256(secret, "METHOD\nPATH\nsorted query without
 * auth_signature")`, with `body_md5` (hex MD5 of the body as sent) among the signed parameters of a request with a
 * body, `auth_version=1.0` and an `auth_timestamp` within 600 s. Outside /api: no session, no CSRF guard, the
 * signature is the whole authentication. Answers 401 to any mismatch, before reading the body's content.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendError } from '../plugins/errors.ts';
import type { PusherApp, PusherServer } from './pusher-server.ts';
import {
  MAX_BATCH_EVENTS,
  MAX_MESSAGE_BYTES,
  MAX_TRIGGER_CHANNELS,
  SOCKET_ID,
  channelKind,
  eventData,
  hmac,
  sameSignature,
  validChannelName,
  validEventName,
} from './protocol.ts';

const MAX_CLOCK_SKEW_S = 600;

/** Pusher's `info` attributes: a comma-separated list of these. */
const INFO_ATTRIBUTES = ['user_count', 'subscription_count'] as const;
type InfoAttribute = (typeof INFO_ATTRIBUTES)[number];

/** `info` as sent: the attributes asked for, or undefined when it is malformed (an unknown attribute, not a string). */
function parseInfo(info: unknown): InfoAttribute[] | undefined {
  if (info === undefined || info === '') return [];
  if (typeof info !== 'string') return undefined;
  const asked = info.split(',').map((a) => a.trim());
  return asked.every((a): a is InfoAttribute => (INFO_ATTRIBUTES as readonly string[]).includes(a)) ? [...new Set(asked)] : undefined;
}

const eventSchema = z.object({
  name: z.string().refine(validEventName),
  info: z.string().max(200).optional(),
  data: z.unknown(),
  channels: z.array(z.string().refine(validChannelName)).min(1).max(MAX_TRIGGER_CHANNELS).optional(),
  channel: z.string().refine(validChannelName).optional(),
  socket_id: z.string().regex(SOCKET_ID).optional(),
});
const batchSchema = z.object({ batch: z.array(eventSchema).min(1).max(MAX_BATCH_EVENTS) });

/** Pusher's answers, as its HTTP API defines them (declared on the routes: the OpenAPI document and the serializer). */
const pusherEmpty = z.object({}).strict();
/** A channel's `info` attributes, those asked for (user_count: presence channels only). */
const pusherChannelInfo = z.object({ user_count: z.number().int().optional(), subscription_count: z.number().int().optional() }).strict();
const answers = {
  events: { 200: pusherEmpty.or(z.object({ channels: z.record(z.string(), pusherChannelInfo) }).strict()) },
  batch: { 200: pusherEmpty.or(z.object({ batch: z.array(pusherChannelInfo) }).strict()) },
  channels: { 200: z.object({ channels: z.record(z.string(), pusherChannelInfo) }).strict() },
  channel: { 200: pusherChannelInfo.extend({ occupied: z.boolean() }).strict() },
  users: { 200: z.object({ users: z.array(z.object({ id: z.string() })) }) },
  terminate: { 200: pusherEmpty },
};

type Verdict = 'ok' | 'unauthorized';

/** Checks a request's signature against the app's secret (raw body: the one body_md5 was computed over). */
export function verifySignedRequest(app: PusherApp, method: string, rawUrl: string, rawBody: string | undefined, nowS: number): Verdict {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const signature = params.get('auth_signature');
  if (params.get('auth_key') !== app.key || signature === null) return 'unauthorized';
  if (params.get('auth_version') !== '1.0') return 'unauthorized';
  const timestamp = Number(params.get('auth_timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > MAX_CLOCK_SKEW_S) return 'unauthorized';
  if (rawBody !== undefined && rawBody !== '') {
    const md5 = crypto.createHash('md5').update(rawBody, 'utf8').digest('hex');
    if (params.get('body_md5') !== md5) return 'unauthorized';
  }
  const signed = [...params.entries()]
    .filter(([k]) => k !== 'auth_signature')
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return sameSignature(signature, hmac(app.secret, `${method}\n${path}\n${signed}`)) ? 'ok' : 'unauthorized';
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export async function realtimeHttpApi(app: FastifyInstance, opts: { pusherApp: PusherApp; server: PusherServer }): Promise<void> {
  const { pusherApp, server } = opts;
  // The body exactly as sent, for body_md5; parsed in the handler once the signature holds.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

  /** Signature and app id; answers the refusal and returns false when they do not hold. */
  const authorized = (req: FastifyRequest<{ Params: { appId: string } }>, reply: FastifyReply): boolean => {
    if (req.params.appId !== pusherApp.id) {
      void sendError(req, reply, 404, 'not_found');
      return false;
    }
    const raw = typeof req.body === 'string' ? req.body : undefined;
    if (verifySignedRequest(pusherApp, req.method, req.originalUrl, raw, Math.floor(Date.now() / 1000)) !== 'ok') {
      void sendError(req, reply, 401, 'unauthenticated');
      return false;
    }
    return true;
  };

  /** One event to publish, or the status and code to refuse it with. */
  const readEvent = (e: z.infer<typeof eventSchema>) => {
    const channels = e.channels ?? (e.channel ? [e.channel] : []);
    if (channels.length === 0) return undefined;
    const info = parseInfo(e.info);
    if (info === undefined) return undefined;
    const data = eventData(e.data);
    if (Buffer.byteLength(data) > MAX_MESSAGE_BYTES) return 'too_large' as const;
    return { channels, name: e.name, data, socketId: e.socket_id, info };
  };

  /** The attributes asked for of one channel; `user_count` only where it exists (presence). */
  const channelInfo = async (channel: string, info: InfoAttribute[]) => {
    const out: { user_count?: number; subscription_count?: number } = {};
    if (info.includes('user_count') && channelKind(channel) === 'presence') out.user_count = (await server.members(channel)).length;
    if (info.includes('subscription_count')) out.subscription_count = server.localSubscriberCount(channel);
    return out;
  };

  app.post<{ Params: { appId: string } }>('/apps/:appId/events', { schema: { response: answers.events } }, async (req, reply) => {
    if (!authorized(req, reply)) return reply;
    const parsed = eventSchema.safeParse(parseJson(typeof req.body === 'string' ? req.body : ''));
    const event = parsed.success ? readEvent(parsed.data) : undefined;
    if (event === undefined) return sendError(req, reply, 400, 'validation_failed');
    if (event === 'too_large') return sendError(req, reply, 413, 'payload_too_large');
    server.publish(event.channels, event.name, event.data, event.socketId);
    if (event.info.length === 0) return {};
    const channels: Record<string, Awaited<ReturnType<typeof channelInfo>>> = {};
    for (const channel of event.channels) channels[channel] = await channelInfo(channel, event.info);
    return { channels };
  });

  app.post<{ Params: { appId: string } }>('/apps/:appId/batch_events', { schema: { response: answers.batch } }, async (req, reply) => {
    if (!authorized(req, reply)) return reply;
    const parsed = batchSchema.safeParse(parseJson(typeof req.body === 'string' ? req.body : ''));
    if (!parsed.success) return sendError(req, reply, 400, 'validation_failed');
    const events = parsed.data.batch.map(readEvent);
    if (events.some((e) => e === undefined)) return sendError(req, reply, 400, 'validation_failed');
    if (events.some((e) => e === 'too_large')) return sendError(req, reply, 413, 'payload_too_large');
    const valid = events.filter((e) => e !== undefined && e !== 'too_large');
    for (const e of valid) server.publish(e.channels, e.name, e.data, e.socketId);
    if (valid.every((e) => e.info.length === 0)) return {};
    // Pusher answers one entry per event, for its (single) channel.
    return { batch: await Promise.all(valid.map((e) => channelInfo(e.channels[0]!, e.info))) };
  });

  app.get<{ Params: { appId: string }; Querystring: { filter_by_prefix?: unknown; info?: unknown } }>(
    '/apps/:appId/channels',
    { schema: { response: answers.channels } },
    async (req, reply) => {
      if (!authorized(req, reply)) return reply;
      const prefix = req.query.filter_by_prefix ?? '';
      const info = parseInfo(req.query.info);
      if (typeof prefix !== 'string' || info === undefined) return sendError(req, reply, 400, 'validation_failed');
      // As Pusher: user_count can only be asked for presence channels.
      if (info.includes('user_count') && !prefix.startsWith('presence-')) return sendError(req, reply, 400, 'validation_failed');
      const channels: Record<string, Awaited<ReturnType<typeof channelInfo>>> = {};
      for (const channel of [...(await server.occupiedChannels())].filter((c) => c.startsWith(prefix)).sort())
        channels[channel] = await channelInfo(channel, info);
      return { channels };
    },
  );

  app.get<{ Params: { appId: string; channel: string }; Querystring: { info?: unknown } }>(
    '/apps/:appId/channels/:channel',
    { schema: { response: answers.channel } },
    async (req, reply) => {
      if (!authorized(req, reply)) return reply;
      const { channel } = req.params;
      const info = parseInfo(req.query.info);
      if (!validChannelName(channel) || info === undefined) return sendError(req, reply, 400, 'validation_failed');
      if (info.includes('user_count') && channelKind(channel) !== 'presence') return sendError(req, reply, 400, 'validation_failed');
      const presence = channelKind(channel) === 'presence';
      const occupied = server.localSubscriberCount(channel) > 0 || (presence && (await server.members(channel)).length > 0);
      return { occupied, ...(await channelInfo(channel, info)) };
    },
  );

  app.get<{ Params: { appId: string; channel: string } }>(
    '/apps/:appId/channels/:channel/users',
    { schema: { response: answers.users } },
    async (req, reply) => {
      if (!authorized(req, reply)) return reply;
      if (!validChannelName(req.params.channel) || channelKind(req.params.channel) !== 'presence')
        return sendError(req, reply, 400, 'validation_failed');
      const members = await server.members(req.params.channel);
      return { users: members.map((m) => ({ id: m.user_id })) };
    },
  );

  app.post<{ Params: { appId: string; userId: string } }>(
    '/apps/:appId/users/:userId/terminate_connections',
    { schema: { response: answers.terminate } },
    async (req, reply) => {
      if (!authorized(req, reply)) return reply;
      if (!/^[A-Za-z0-9_\-=@,.;]{1,200}$/.test(req.params.userId)) return sendError(req, reply, 400, 'validation_failed');
      await server.terminateUser(req.params.userId);
      return {};
    },
  );
}
