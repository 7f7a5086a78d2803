/**
 * Asking for verification codes (issue 12 point 4): one open request per profile however often the model asks, only
 * the last code shown works, and at most VERIFY_CODES_PER_HOUR a model: then 429 with Retry-After.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationRequests } from '#server/db/schema.ts';
import { multipart } from '#server/modules/media/test-helpers.ts';
import { jpegWithGps } from '#server/modules/media/test-images.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

const PER_HOUR = 4;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ verificationCodesPerHour: PER_HOUR });
});
afterAll(async () => {
  await t.close();
});

async function unverifiedModel(name: string): Promise<{ agent: Agent; profileId: number }> {
  const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
  const { profileId } = await buildModel(t.database.db, { name, userId: user.id, profileStatus: 'unverified' });
  return { agent, profileId };
}

const rowsOf = (profileId: number) =>
  t.database.db.select().from(verificationRequests).where(eq(verificationRequests.modelProfileId, profileId));

const askCode = (agent: Agent, headers?: Record<string, string>) => agent.post('/api/profile/model/verification/code', undefined, headers);

describe('POST /api/profile/model/verification/code', () => {
  it('keeps one open request per profile: asking again renews its code, and only the last code works', async () => {
    const { agent, profileId } = await unverifiedModel('Olaia');
    const codes: string[] = [];
    for (let i = 0; i < PER_HOUR; i++) {
      const res = await askCode(agent);
      expect(res.statusCode, res.body).toBe(201);
      codes.push(res.json<{ data: { code: string } }>().data.code);
    }
    const rows = await rowsOf(profileId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'awaiting_photo', code: codes.at(-1) });

    const photo = await jpegWithGps();
    const submit = (code: string) => {
      const { payload, headers } = multipart([
        { name: 'code', value: code },
        { name: 'photo', filename: 'selfie.jpg', contentType: 'image/jpeg', data: photo },
      ]);
      return agent.request({ method: 'POST', url: '/api/profile/model/verification', payload, headers });
    };
    const stale = codes.find((c) => c !== codes.at(-1));
    if (stale) expect((await submit(stale)).statusCode).toBe(422);
    expect((await submit(codes.at(-1)!)).statusCode).toBe(201);
  });

  it(`allows ${PER_HOUR} codes an hour per model, then 429 with Retry-After and a translated message`, async () => {
    const { agent, profileId } = await unverifiedModel('Itziar');
    for (let i = 0; i < PER_HOUR; i++) expect((await askCode(agent)).statusCode).toBe(201);
    const [before] = await rowsOf(profileId);

    const limited = await askCode(agent);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      type: 'error',
      error: 'too_many_requests',
      message: 'Has pedido demasiados códigos. Usa el último que te dimos o inténtalo de nuevo más tarde.',
    });
    const en = await askCode(agent, { 'x-locale': 'en' });
    expect(en.statusCode).toBe(429);
    expect(en.json<{ message: string }>().message).toBe(
      'You have asked for too many codes. Use the last one we gave you or try again later.',
    );
    // The open code is untouched: the model can still use the last one shown.
    expect(await rowsOf(profileId)).toEqual([before]);

    // Another model is not affected.
    const { agent: other } = await unverifiedModel('Maialen');
    expect((await askCode(other)).statusCode).toBe(201);
  });
});
