/**
 * The chat and notifications end to end over real sockets: laravel-echo with pusher-js (Node) connects to the
 * embedded server, authorizes through the app's real POST /broadcasting/auth over HTTP (session cookie, CSRF token,
 * X-Requested-With), and receives a staff reply as `MessageSent` and the notification through `.notification()`.
 */
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#contract/notifications.ts';
import { userChannel } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { chatChannel, type Conversation, type Message, type MessageSentPayload, type MessagesReadPayload } from '#contract/support-chat.ts';
import { connected, listeningApp, until, type ListeningApp } from '#server/realtime/test-helpers.ts';
import { signedIn, type Agent } from '#tests/agent.ts';

let t: ListeningApp;
const clients: Pusher[] = [];

beforeAll(async () => {
  t = await listeningApp();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await t.close();
});

/** Pusher's channel authorization, posted to the app over HTTP as the PWA does (form-encoded, cookies, CSRF). */
function httpAuthorized(agent: Agent) {
  const headers = () => ({
    'content-type': 'application/x-www-form-urlencoded',
    'x-requested-with': 'XMLHttpRequest',
    'x-xsrf-token': agent.cookies.get('XSRF-TOKEN') ?? '',
    cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  });
  const post = async (path: string, fields: Record<string, string>) => {
    const res = await fetch(`http://127.0.0.1:${t.port}${path}`, { method: 'POST', headers: headers(), body: new URLSearchParams(fields) });
    if (!res.ok) throw Object.assign(new Error(`auth ${res.status}`), { status: res.status });
    return (await res.json()) as never;
  };
  return new Pusher(t.config.realtime.key, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: t.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: API.broadcastingAuth,
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        post(API.broadcastingAuth, { socket_id: socketId, channel_name: channelName }).then(
          (data) => callback(null, data),
          (err: Error) => callback(err, null),
        );
      },
    },
    userAuthentication: {
      endpoint: API.broadcastingUserAuth,
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => {
        post(API.broadcastingUserAuth, { socket_id: socketId }).then(
          (data) => callback(null, data),
          (err: Error) => callback(err, null),
        );
      },
    },
  });
}

function echoFor(agent: Agent): { echo: Echo<'pusher'>; client: Pusher } {
  const client = httpAuthorized(agent);
  clients.push(client);
  const echo = new Echo({ broadcaster: 'pusher', key: t.config.realtime.key, client });
  return { echo, client };
}

function subscribed(echo: Echo<'pusher'>, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const channel = echo.private(name);
    channel.subscribed(() => resolve());
    channel.error((e: unknown) => reject(new Error(`subscription to ${name} refused: ${JSON.stringify(e)}`)));
  });
}

describe('live chat through laravel-echo and pusher-js', () => {
  it(
    'a staff reply arrives as MessageSent and as a notification; a read receipt comes back; other channels are refused',
    { timeout: 90_000 },
    async () => {
      const model = await signedIn(t.app, t.database.db, { role: 'model', name: 'Lola Live' });
      const admin = await signedIn(t.app, t.database.db, { role: 'admin', name: 'Ana Live' });
      const conversation = (await model.agent.post(API.supportConversations, {})).json<{ data: Conversation }>().data;

      const m = echoFor(model.agent);
      const a = echoFor(admin.agent);
      const messages: Message[] = [];
      const adminSaw: Message[] = [];
      const receipts: MessagesReadPayload[] = [];
      const heard: Notification[] = [];
      m.echo.private(chatChannel(conversation.id)).listen('MessageSent', (e: MessageSentPayload) => messages.push(e.message));
      m.echo.private(userChannel(model.user.id)).notification((n: Notification) => heard.push(n));
      a.echo
        .private(chatChannel(conversation.id))
        .listen('MessageSent', (e: MessageSentPayload) => adminSaw.push(e.message))
        .listen('MessagesRead', (e: MessagesReadPayload) => receipts.push(e));
      await Promise.all([
        subscribed(m.echo, chatChannel(conversation.id)),
        subscribed(m.echo, userChannel(model.user.id)),
        subscribed(a.echo, chatChannel(conversation.id)),
      ]);

      // The admin posts from the socket they listen on: toOthers keeps it from coming back to them.
      const adminSocket = await connected(a.client);
      const posted = await admin.agent.post(
        API.supportMessages(conversation.id),
        { content: 'Hola Lola, ¿en qué te ayudo?' },
        {
          'x-socket-id': adminSocket,
        },
      );
      expect(posted.statusCode, posted.body).toBe(201);
      await until(() => messages.length === 1 && heard.length === 1);
      expect(messages[0]).toMatchObject({
        conversation_id: conversation.id,
        seq: 1,
        is_staff: true,
        content: 'Hola Lola, ¿en qué te ayudo?',
      });
      expect(heard[0]).toMatchObject({ kind: 'support.reply', message: 'Nueva respuesta del equipo de soporte', read: false });

      // The model reads it: the admin's screen gets the receipt (✓✓).
      await model.agent.post(API.supportRead(conversation.id), { seq: 1 });
      await until(() => receipts.length === 1);
      expect(receipts[0]).toMatchObject({ conversation_id: conversation.id, reader_id: model.user.id, up_to_seq: 1 });

      // The model answers; the admin gets it, and had not got their own message.
      await model.agent.post(API.supportMessages(conversation.id), { content: 'No puedo subir fotos' });
      await until(() => adminSaw.length === 1);
      expect(adminSaw.map((x) => x.seq)).toEqual([2]);

      // Another user's channel and the staff presence channel are refused to the model (403 from /broadcasting/auth).
      const other = await signedIn(t.app, t.database.db, { role: 'client' });
      await expect(subscribed(m.echo, userChannel(other.user.id))).rejects.toThrow(/refused/);
      await expect(
        new Promise<void>((resolve, reject) => {
          m.echo
            .join('support.staff')
            .here(() => resolve())
            .error(() => reject(new Error('refused')));
        }),
      ).rejects.toThrow('refused');
    },
  );

  it('staff on presence-support.staff make support "online" for users', { timeout: 90_000 }, async () => {
    const user = await signedIn(t.app, t.database.db, { role: 'client' });
    const admin = await signedIn(t.app, t.database.db, { role: 'super_admin', name: 'Sofía Live' });
    expect((await user.agent.get(API.supportStatus)).json()).toMatchObject({ online: false });
    const a = echoFor(admin.agent);
    const members: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      a.echo
        .join('support.staff')
        .here((list: unknown[]) => {
          members.push(...list);
          resolve();
        })
        .error(() => reject(new Error('refused')));
    });
    expect(members).toEqual([{ name: 'Sofía Live', role: 'super_admin' }]);
    await until(async () => (await user.agent.get(API.supportStatus)).json<{ online: boolean }>().online);
    expect((await user.agent.get(API.supportStatus)).json()).toMatchObject({ online: true, staff_online: 1 });
  });
});
