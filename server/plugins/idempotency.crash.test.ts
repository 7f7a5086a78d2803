/**
 * Exactly once across a crash, on the real server process (issue 15 point 5): `tsx server/main.ts` is started with the
 * test-only fault hook VITRINA_FAULT_AFTER_COMMIT, which kills it (SIGKILL) once a keyed request's change and answer
 * have committed and before the answer is sent. The client's request fails; the server is started again on the same
 * data; the retry with the same Idempotency-Key gets the stored answer (`Idempotent-Replayed: true`) and the change is
 * there once: the ad edit's version moved by one, one new photo, one chat message. PGlite in DATA_DIR, or a throwaway
 * database on the PostgreSQL server when DATABASE_URL is set (npm run test:server:pg).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProfile } from '#contract/profiles.ts';
import { API } from '#contract/routes.ts';
import { uploadBody } from '#server/modules/media/test-helpers.ts';
import { jpeg } from '#server/modules/media/test-images.ts';
import { freePort } from '#tests/local-processes.ts';
import { createServerDatabase } from '#tests/test-app.ts';

const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'demo-password-crash-42';
const EDIT = 'PUT /api/profile/model-with-ad/update/:id';
const UPLOAD = 'POST /api/upload/images';
const MESSAGE = `POST ${API.supportMessages(':id')}`;

let dataDir: string;
let serverDb: { url: string; drop(): Promise<void> } | undefined;
let port: number;
let child: ChildProcess | undefined;
let exited: Promise<NodeJS.Signals | null> | undefined;
let log = '';

/** Starts the server on the same data and port; resolves once it answers. */
async function start(faults: string[]): Promise<void> {
  log = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: serverDb?.url ?? '',
      SEED_DEMO: 'true',
      DEMO_ADS: '1',
      DEMO_PASSWORD: PASSWORD,
      APP_KEY: 'crash-test-key-'.padEnd(40, 'k'),
      LOG_LEVEL: 'warn',
      NO_COLOR: '1',
      VITRINA_FAULT_AFTER_COMMIT: faults.join(','),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = child;
  proc.stdout!.on('data', (c: Buffer) => (log += c.toString('utf8')));
  proc.stderr!.on('data', (c: Buffer) => (log += c.toString('utf8')));
  exited = new Promise((resolve) => proc.once('exit', (_code, signal) => resolve(signal)));
  await expect
    .poll(
      async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server/main.ts exited early:\n${log}`);
        return fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 150_000, interval: 250 },
    )
    .toBe(true);
}

/** The killed process is gone (SIGKILL: no clean-up ran). */
async function killed(): Promise<void> {
  expect(await exited).toBe('SIGKILL');
  child = undefined;
}

/** A browser-like client over real HTTP: keeps cookies, sends the XHR header and echoes the XSRF token. */
const cookies = new Map<string, string>();
async function call(method: string, url: string, opts: { json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}) {
  const xsrf = cookies.get('XSRF-TOKEN');
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(opts.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.json === undefined ? {} : { body: JSON.stringify(opts.json) }),
    ...(opts.body ? { body: new Uint8Array(opts.body) } : {}),
  });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
  }
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const profile = async () => JSON.parse((await call('GET', '/api/profile/model')).text) as { data: ModelProfile };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-crash-'));
  if (process.env.DATABASE_URL) serverDb = await createServerDatabase(process.env.DATABASE_URL);
  port = await freePort();
}, 60_000);

afterAll(async () => {
  if (child) {
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  await serverDb?.drop();
}, 60_000);

describe('a server killed between commit and answer', () => {
  it('answers the retry with the stored answer and has made each change once', { timeout: 600_000 }, async () => {
    await start([EDIT, UPLOAD, MESSAGE]);
    await call('GET', '/sanctum/csrf-cookie');
    const login = await call('POST', '/api/login', { json: { email: 'model@vitrina.test', password: PASSWORD } });
    expect(login.status, login.text).toBe(200);

    // 1. The ad edit.
    const before = (await profile()).data;
    const edit = {
      display_name: before.display_name,
      birth_date: before.birth_date,
      phone_country: before.phone_country,
      phone: before.phone,
      whatsapp: before.whatsapp,
      country_id: before.country_id,
      state_id: before.ad!.state_id,
      city_id: before.ad!.city_id,
      section: before.ad!.section,
      title: 'Editado antes del apagón',
      description: before.ad!.description,
      version: before.version,
    };
    const editKey = crypto.randomUUID();
    const sendEdit = () =>
      call('PUT', `/api/profile/model-with-ad/update/${before.id}`, { json: edit, headers: { 'idempotency-key': editKey } });
    await expect(sendEdit()).rejects.toThrow();
    await killed();
    await start([UPLOAD, MESSAGE]);
    const editRetry = await sendEdit();
    expect(editRetry.status, editRetry.text).toBe(200);
    expect(editRetry.headers.get('idempotent-replayed')).toBe('true');
    const edited = (await profile()).data;
    expect(JSON.parse(editRetry.text)).toMatchObject({ data: { version: before.version + 1, ad: { version: before.ad!.version + 1 } } });
    expect({ version: edited.version, adVersion: edited.ad!.version, title: edited.ad!.title }).toEqual({
      version: before.version + 1,
      adVersion: before.ad!.version + 1,
      title: 'Editado antes del apagón',
    });

    // 2. A photo upload: the same multipart bytes sent again, as the outbox keeps the compressed file.
    const upload = uploadBody(edited.ad!.id, [{ filename: 'sin-red.jpg', data: await jpeg(640, 480, 7) }]);
    const uploadKey = crypto.randomUUID();
    const sendUpload = () =>
      call('POST', '/api/upload/images', { body: upload.payload, headers: { ...upload.headers, 'idempotency-key': uploadKey } });
    await expect(sendUpload()).rejects.toThrow();
    await killed();
    await start([MESSAGE]);
    const uploadRetry = await sendUpload();
    expect(uploadRetry.status, uploadRetry.text).toBe(201);
    expect(uploadRetry.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.parse(uploadRetry.text)).toMatchObject({ data: { media: [{ file: 'sin-red.jpg' }], refused: [] } });
    expect((await profile()).data.ad!.photos).toBe(edited.ad!.photos + 1);

    // 3. A chat message.
    const opened = await call('POST', API.supportConversations, { json: {} });
    expect([200, 201], opened.text).toContain(opened.status);
    const conversation = (JSON.parse(opened.text) as { data: { id: number } }).data.id;
    const messageKey = crypto.randomUUID();
    const content = 'Escrito en el túnel, enviado una sola vez.';
    const sendMessage = () =>
      call('POST', API.supportMessages(conversation), { json: { content }, headers: { 'idempotency-key': messageKey } });
    await expect(sendMessage()).rejects.toThrow();
    await killed();
    await start([]);
    const messageRetry = await sendMessage();
    expect(messageRetry.status, messageRetry.text).toBe(201);
    expect(messageRetry.headers.get('idempotent-replayed')).toBe('true');
    const page = JSON.parse((await call('GET', API.supportMessages(conversation))).text) as { data: { content: string }[] };
    expect(page.data.filter((m) => m.content === content)).toHaveLength(1);
  });
});
