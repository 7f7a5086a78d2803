/**
 * The daily digest's one-click unsubscribe (RFC 8058), as a mail server receives the e-mail over SMTP and as a mail
 * client then posts to its List-Unsubscribe URL: a form, without cookies, XHR header or CSRF token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import type { SavedSearch } from '#contract/saved-searches.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { CITY, findCity, type ModelSpec } from '#tests/factories.ts';
import { startSmtpCapture, type SmtpCapture } from '#tests/smtp-capture.ts';
import { approvedAd as approveAd, saveSearch } from '#tests/saved-searches.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';

let smtp: SmtpCapture;
let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const save = saveSearch;
const approvedAd = (spec: ModelSpec) => approveAd(db(), spec);

/** The digest as the mail server got it: its header fields (unfolded, by lower-case name) and its text. */
async function digestTo(email: string): Promise<{ headers: Map<string, string>; raw: string }> {
  await drainJobs(t.app);
  await expect.poll(() => smtp.received.some((m) => m.to.includes(email)), { timeout: 5000 }).toBe(true);
  const raw = smtp.received.find((m) => m.to.includes(email))!.raw;
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map(head.split(/\r?\n/).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { headers, raw };
}

const alertsOf = async (agent: Agent) =>
  new Map((await agent.get(API.savedSearches)).json<{ data: SavedSearch[] }>().data.map((s) => [s.id, s.alerts]));

/** A mail client's post: no cookie, no X-Requested-With, no CSRF token. */
function mailClientPost(url: string, contentType: string, payload: string) {
  return t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
}

describe('the daily digest’s List-Unsubscribe (RFC 8058)', () => {
  it('carries a signed one-click URL for the searches it names; the mail client’s form post turns them off, nothing else does', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'client' });
    const aviles = (await findCity(db(), CITY.aviles)).id;
    const s1 = await save(agent, { name: 'Avilés', city: aviles, alerts: 'daily' });
    const s2 = await save(agent, { name: 'Avilés mujeres', city: aviles, section: 'women', alerts: 'daily' });
    const other = await save(agent, { name: 'Al momento', city: aviles, alerts: 'instant' });
    await approvedAd({ name: 'Xana', city: CITY.aviles, section: 'women' });

    const { headers } = await digestTo(user.email);
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const header = headers.get('list-unsubscribe') ?? '';
    const m = /^<(http:\/\/[^>]+)>$/.exec(header);
    expect(m, header).not.toBeNull();
    const url = new URL(m![1]!);
    expect(`${url.origin}`).toBe(t.app.config.appUrl);
    expect(url.pathname).toBe(API.savedSearchOneClick);
    expect(url.searchParams.get('id')).toBe([s1.id, s2.id].sort((a, b) => a - b).join(','));
    const path = `${url.pathname}${url.search}`;

    // Not the mail client's form: refused, nothing changed.
    expect(
      (await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode,
    ).toBe(400);
    expect((await mailClientPost(path, 'application/x-www-form-urlencoded', 'List-Unsubscribe=Later')).statusCode).toBe(422);
    const forged = path.replace(/token=[^&]+/, `token=${'A'.repeat(43)}`);
    expect((await mailClientPost(forged, 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click')).statusCode).toBe(404);
    const widened = path.replace(/id=[^&]+/, `id=${url.searchParams.get('id')},${other.id}`);
    expect((await mailClientPost(widened, 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).not.toBe(200);
    expect(await alertsOf(agent)).toEqual(
      new Map([
        [s1.id, 'daily'],
        [s2.id, 'daily'],
        [other.id, 'instant'],
      ]),
    );

    // The mail client's one click.
    const res = await mailClientPost(path, 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { ids: number[] } }>().data.ids).toEqual([s1.id, s2.id].sort((a, b) => a - b));
    expect(await alertsOf(agent)).toEqual(
      new Map([
        [s1.id, 'off'],
        [s2.id, 'off'],
        [other.id, 'instant'],
      ]),
    );

    // The multipart form of RFC 8058's example works too (again: still off, still 200).
    await agent.put(API.savedSearch(s1.id), { alerts: 'daily' });
    const boundary = '---FormBoundaryjWmhtjORrn';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    expect((await mailClientPost(path, `multipart/form-data; boundary=${boundary}`, multipart)).statusCode).toBe(200);
    expect((await alertsOf(agent)).get(s1.id)).toBe('off');
  });

  it('for a digest of one search, the URL’s token is that search’s own unsubscribe link’s', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'client' });
    const gijon = (await findCity(db(), CITY.gijon)).id;
    const s = await save(agent, { name: 'Gijón', city: gijon, alerts: 'daily' });
    await approvedAd({ name: 'Noa', city: CITY.gijon, section: 'men' });
    const { headers, raw } = await digestTo(user.email);
    const url = new URL(/^<([^>]+)>$/.exec(headers.get('list-unsubscribe') ?? '')![1]!);
    expect(url.searchParams.get('id')).toBe(String(s.id));
    const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(text).toContain(`/saved-searches/unsubscribe/${s.id}/${url.searchParams.get('token')}`);
  });
});
