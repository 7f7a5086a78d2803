import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '#server/db/schema.ts';
import type { Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs, uploadBody } from './test-helpers.ts';
import { jpeg } from './test-images.ts';

let t: TestApp;
let agent: Agent;
let adId: number;
beforeAll(async () => {
  t = await createTestApp();
  const m = await buildModel(t.database.db, { name: 'Multipart' });
  adId = m.adId;
  agent = await loginAs(t.app, t.database.db, m.userId);
});
afterAll(async () => {
  await t.close();
});

/** Bodies a broken or hostile client sends as multipart/form-data; none of them can be read. */
async function malformed(): Promise<[string, { payload: Buffer; contentType: string }][]> {
  const good = uploadBody(adId, [{ filename: 'a.jpg', data: await jpeg(200, 150) }]);
  const boundary = /boundary=(.+)$/.exec(good.headers['content-type']!)![1]!;
  return [
    ['no boundary', { payload: good.payload, contentType: 'multipart/form-data' }],
    ['a wrong boundary', { payload: good.payload, contentType: 'multipart/form-data; boundary=not-the-one-used' }],
    ['a boundary over 256 characters', { payload: good.payload, contentType: `multipart/form-data; boundary=${'b'.repeat(300)}` }],
    [
      'garbage bytes',
      { payload: Buffer.from([0xff, 0x00, 0x13, 0x37, 0x0d, 0x0a, 0x2d, 0x2d]), contentType: `multipart/form-data; boundary=${boundary}` },
    ],
    [
      'a truncated body',
      { payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)), contentType: good.headers['content-type']! },
    ],
  ];
}

describe.each([
  ['POST /api/upload/images', '/api/upload/images'],
  ['the verification selfie upload', '/api/profile/model/verification'],
])('malformed multipart on %s', (_name, url) => {
  it('is a 400 in the envelope and stores nothing', async () => {
    const before = (await t.database.db.select().from(media)).length;
    for (const [what, body] of await malformed()) {
      const res = await agent.request({ method: 'POST', url, payload: body.payload, headers: { 'content-type': body.contentType } });
      expect(res.statusCode, what).toBe(400);
      const answer = res.json<{ type: string; error: string; message: string }>();
      expect(answer, what).toMatchObject({ type: 'error', error: 'malformed_multipart' });
      expect(answer.message.length, what).toBeGreaterThan(10);
    }
    expect((await t.database.db.select().from(media)).length).toBe(before);
  });
});
