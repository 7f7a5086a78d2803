import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelProfiles, verificationRequests } from '#server/db/schema.ts';
import { multipart } from '#server/modules/media/test-helpers.ts';
import { jpegWithGps, textFile } from '#server/modules/media/test-images.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, CITY } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A signed-in model whose profile is still unverified. */
async function unverifiedModel(): Promise<{ agent: Agent; profileId: number }> {
  const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
  const built = await buildModel(t.database.db, {
    name: 'Noelia',
    city: CITY.oviedo,
    section: 'women',
    userId: user.id,
    profileStatus: 'unverified',
  });
  return { agent, profileId: built.profileId };
}

function send(agent: Agent, parts: Parameters<typeof multipart>[0]) {
  const { payload, headers } = multipart(parts);
  return agent.request({ method: 'POST', url: '/api/profile/model/verification', payload, headers });
}

describe('Profile/Model Verify', () => {
  it('issues a code, takes the selfie with it, stores it privately without metadata and sets the profile pending', async () => {
    const { agent, profileId } = await unverifiedModel();
    const codeRes = await agent.post('/api/profile/model/verification/code');
    expect(codeRes.statusCode).toBe(201);
    const { code } = codeRes.json<{ data: { code: string } }>().data;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);

    const res = await send(agent, [
      { name: 'code', value: code.toLowerCase() },
      { name: 'photo', filename: 'selfie.jpg', contentType: 'image/jpeg', data: await jpegWithGps() },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Solicitud de verificación enviada. La revisaremos pronto.' });

    const [profile] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profileId));
    expect(profile!.status).toBe('pending');
    const [request] = await t.database.db.select().from(verificationRequests).where(eq(verificationRequests.modelProfileId, profileId));
    expect(request).toMatchObject({ status: 'pending', code });
    expect(request!.photoKey).toMatch(/^verification\//);
    const stored = fs.readFileSync(path.join(t.app.storage.root, request!.photoKey!));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    // Never served: /media answers only ads/… and promo/… keys.
    const served = await agent.get(`/media/${request!.photoKey}`);
    expect(served.statusCode).toBe(404);

    const state = await agent.get('/api/profile/model/verification');
    expect(state.json()).toMatchObject({ data: { profile_status: 'pending', request: { status: 'pending' } } });
    // The code is spent.
    const again = await send(agent, [
      { name: 'code', value: code },
      { name: 'photo', filename: 'selfie.jpg', data: await jpegWithGps() },
    ]);
    expect(again.statusCode).toBe(422);
  });

  it("refuses a wrong or expired code, another model's code, and a file that is not a photo", async () => {
    const { agent, profileId } = await unverifiedModel();
    const { code } = (await agent.post('/api/profile/model/verification/code')).json<{ data: { code: string } }>().data;
    const photo = await jpegWithGps();
    const wrong = await send(agent, [
      { name: 'code', value: 'ZZZZZZ' },
      { name: 'photo', filename: 'a.jpg', data: photo },
    ]);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ errors: Record<string, string[]> }>().errors.code).toEqual([
      'El código no es válido o ha caducado. Pide uno nuevo.',
    ]);

    const { agent: other } = await unverifiedModel();
    expect(
      (
        await send(other, [
          { name: 'code', value: code },
          { name: 'photo', filename: 'a.jpg', data: photo },
        ])
      ).statusCode,
    ).toBe(422);

    const text = await send(agent, [
      { name: 'code', value: code },
      { name: 'photo', filename: 'a.jpg', contentType: 'image/jpeg', data: textFile() },
    ]);
    expect(text.statusCode).toBe(422);
    expect(Object.keys(text.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['photo']);

    await t.database.db
      .update(verificationRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationRequests.modelProfileId, profileId));
    expect(
      (
        await send(agent, [
          { name: 'code', value: code },
          { name: 'photo', filename: 'a.jpg', data: photo },
        ])
      ).statusCode,
    ).toBe(422);
    const [profile] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profileId));
    expect(profile!.status).toBe('unverified');
  });

  it('is for models with a profile; verified profiles need no code', async () => {
    const { agent: client } = await signedIn(t.app, t.database.db, { role: 'client' });
    expect((await client.post('/api/profile/model/verification/code')).statusCode).toBe(403);
    const { agent: bare } = await signedIn(t.app, t.database.db, { role: 'model' });
    expect((await bare.post('/api/profile/model/verification/code')).statusCode).toBe(409);
    const { agent: done, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    await buildModel(t.database.db, { name: 'Vera', city: CITY.gijon, section: 'women', userId: user.id });
    expect((await done.post('/api/profile/model/verification/code')).statusCode).toBe(409);
  });
});
