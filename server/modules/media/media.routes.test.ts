import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_MAX_PHOTOS, UPLOAD_MAX_FILES, type UploadAnswer } from '#contract/media.ts';
import { ads, media } from '#server/db/schema.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildModel, buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loadEditableAd } from './ad-access.ts';
import { PUBLIC_MAX_AGE_S } from './media-files.ts';
import { PLANTED, jpeg, jpegWithGps, pixelFloodPng, png, textFile } from './test-images.ts';
import { loginAs, multipart, uploadBody } from './test-helpers.ts';
// Photos that differ to the perceptual hash: one photo uploaded by several accounts is flagged (photo-hashes.ts).
import { variedPhoto } from './test-photos.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
/** A model with a listed ad (no photos yet), signed in. */
async function modelWithAd(spec: { photos?: number } = {}) {
  const m = await buildModel(t.database.db, { name: `Modelo ${++n}`, ...spec });
  const agent = await loginAs(t.app, t.database.db, m.userId);
  return { ...m, agent };
}

async function upload(agent: Agent, adId: number | string, files: Parameters<typeof uploadBody>[1]) {
  const body = uploadBody(adId, files);
  return agent.post('/api/upload/images', body.payload, body.headers);
}

async function adRow(adId: number) {
  const [row] = await t.database.db.select().from(ads).where(eq(ads.id, adId));
  return row!;
}

const fileOnDisk = (key: string) => path.join(t.app.storage.root, key);

describe('POST /api/upload/images', () => {
  it('stores every accepted photo as WebP variants, without metadata, and sends the ad to review', async () => {
    const { adId, agent } = await modelWithAd();
    expect((await adRow(adId)).isListed).toBe(true);
    const res = await upload(agent, adId, [
      { filename: 'gps.jpg', data: await jpegWithGps() },
      { filename: 'big.jpg', data: await jpeg(2000, 1500) },
      // A PNG with a .jpg name and a JPEG content type: handled as the PNG it is.
      { filename: 'renamed.jpg', data: await png(640, 480), contentType: 'image/jpeg' },
    ]);
    expect(res.statusCode).toBe(201);
    const answer = res.json<UploadAnswer>();
    expect(answer).toMatchObject({ channel: 'notification', type: 'success', message: 'Anuncio pendiente de revisión!' });
    expect(answer.data.refused).toEqual([]);
    expect(answer.data.media.map((m) => [m.file, m.index, m.is_cover])).toEqual([
      ['gps.jpg', 0, true],
      ['big.jpg', 1, false],
      ['renamed.jpg', 2, false],
    ]);
    const [gps, big, renamed] = answer.data.media;
    expect([gps!.width, gps!.height]).toEqual([300, 400]);
    expect(big!.srcset).toMatch(/ 320w, .* 800w, .* 1600w$/);
    expect(big!.url).toMatch(new RegExp(`^/media/ads/${adId}/${big!.uid}/800\\.webp$`));
    expect(renamed!.srcset).toMatch(/ 320w, .* 640w$/);

    const ad = await adRow(adId);
    expect(ad.status).toBe('pending');
    expect(ad.isListed).toBe(false);

    const rows = await t.database.db.select().from(media).where(eq(media.adId, adId));
    expect(rows).toHaveLength(3);
    const renamedRow = rows.find((r) => r.uid === renamed!.uid)!;
    expect(renamedRow.moderation).toMatchObject({ provider: 'stub', source_format: 'png', scores: { sexual_activity: 0 } });
    expect(renamedRow.createdBy).not.toBeNull();

    // What is on disk carries no EXIF, GPS or XMP (read back through the owner's own view of the file).
    const file = await agent.get(gps!.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    const bytes = file.rawPayload;
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    for (const planted of Object.values(PLANTED)) expect(bytes.includes(planted)).toBe(false);
    // No temporary files left beside the variants.
    const dir = fileOnDisk(`ads/${adId}/${gps!.uid}`);
    expect(fs.readdirSync(dir).sort()).toEqual(['300.webp']);
  });

  it('accepts the files under `images[]` too', async () => {
    const { adId, agent } = await modelWithAd();
    const res = await upload(agent, adId, [{ filename: 'a.jpg', data: await jpeg(400, 300), field: 'images[]' }]);
    expect(res.statusCode).toBe(201);
    expect(res.json<UploadAnswer>().data.media).toHaveLength(1);
  });

  it('refuses bad files one by one, with their reasons, and keeps the good ones', async () => {
    const { adId, agent } = await modelWithAd();
    const whole = await jpeg(1200, 900);
    const res = await upload(agent, adId, [
      { filename: 'notes.jpg', data: textFile() },
      { filename: 'cut.jpg', data: whole.subarray(0, Math.floor(whole.length * 0.6)) },
      { filename: 'huge.png', data: pixelFloodPng(), contentType: 'image/png' },
      { filename: 'good.jpg', data: whole },
    ]);
    expect(res.statusCode).toBe(201);
    const answer = res.json<UploadAnswer>();
    expect(answer.type).toBe('warning');
    expect(answer.message).toBe('Anuncio pendiente de revisión!');
    expect(answer.description).toBe('Fotos no aceptadas: 3.');
    expect(answer.data.refused).toEqual([
      { file: 'notes.jpg', index: 0, reason: 'not_an_image', message: 'El archivo no es una imagen.' },
      { file: 'cut.jpg', index: 1, reason: 'corrupt', message: 'La imagen está dañada o incompleta.' },
      { file: 'huge.png', index: 2, reason: 'too_many_pixels', message: 'La foto tiene demasiados píxeles (máximo 40 megapíxeles).' },
    ]);
    expect(answer.data.media.map((m) => [m.file, m.index, m.is_cover])).toEqual([['good.jpg', 3, true]]);
    // Refused files leave nothing behind: one photo folder for the one accepted photo.
    expect(fs.readdirSync(fileOnDisk(`ads/${adId}`))).toEqual([answer.data.media[0]!.uid]);
  });

  it('refuses a file over the size limit without stopping the upload', async () => {
    const { adId, agent } = await modelWithAd();
    const oversized = Buffer.concat([await jpeg(200, 150), crypto.randomBytes(15 * 1024 * 1024 + 10)]);
    const res = await upload(agent, adId, [
      { filename: 'too-big.jpg', data: oversized },
      { filename: 'ok.jpg', data: await jpeg(300, 200) },
    ]);
    expect(res.statusCode).toBe(201);
    const answer = res.json<UploadAnswer>();
    expect(answer.data.refused).toEqual([{ file: 'too-big.jpg', index: 0, reason: 'too_large', message: 'La foto pesa más de 15 MB.' }]);
    expect(answer.data.media).toHaveLength(1);
  });

  it('answers 422 with the refused list when no photo was accepted, and leaves the ad as it was', async () => {
    const { adId, agent } = await modelWithAd();
    const res = await upload(agent, adId, [{ filename: 'notes.jpg', data: textFile() }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      type: 'error',
      error: 'validation_failed',
      message: 'No se ha aceptado ninguna foto.',
      errors: { images: ['notes.jpg: El archivo no es una imagen.'] },
      data: { media: [], refused: [{ file: 'notes.jpg', reason: 'not_an_image' }] },
    });
    expect((await adRow(adId)).status).toBe('active');
  });

  it('answers in the language of the request', async () => {
    const { adId, agent } = await modelWithAd();
    const body = uploadBody(adId, [
      { filename: 'a.jpg', data: await jpeg(300, 200) },
      { filename: 'b.jpg', data: textFile() },
    ]);
    const res = await agent.post('/api/upload/images', body.payload, { ...body.headers, 'x-locale': 'en' });
    expect(res.json()).toMatchObject({
      message: 'Ad pending review!',
      data: { refused: [{ message: 'The file is not an image.' }] },
    });
  });

  it('needs the ad, before the files, and at least one file', async () => {
    const { adId, agent } = await modelWithAd();
    const noAd = multipart([{ name: 'images', filename: 'a.jpg', data: await jpeg(100, 100) }]);
    const r1 = await agent.post('/api/upload/images', noAd.payload, noAd.headers);
    expect(r1.statusCode).toBe(422);
    expect(r1.json()).toMatchObject({ errors: { ad_id: ['Indica el anuncio antes de las fotos.'] } });
    const noFiles = multipart([{ name: 'ad_id', value: String(adId) }]);
    const r2 = await agent.post('/api/upload/images', noFiles.payload, noFiles.headers);
    expect(r2.statusCode).toBe(422);
    expect(r2.json()).toMatchObject({ errors: { images: ['Añade al menos una foto.'] } });
    const badAd = uploadBody('abc', [{ filename: 'a.jpg', data: await jpeg(100, 100) }]);
    expect((await agent.post('/api/upload/images', badAd.payload, badAd.headers)).statusCode).toBe(422);
    const json = await agent.post('/api/upload/images', { ad_id: adId });
    expect(json.statusCode).toBe(415);
  });

  it('refuses files past the per-request limit as too many', async () => {
    const { adId, agent } = await modelWithAd();
    const small = await jpeg(64, 48);
    const files = Array.from({ length: UPLOAD_MAX_FILES + 2 }, (_, i) => ({ filename: `f${i}.jpg`, data: small }));
    const res = await upload(agent, adId, files);
    expect(res.statusCode).toBe(201);
    const answer = res.json<UploadAnswer>();
    expect(answer.data.media).toHaveLength(UPLOAD_MAX_FILES);
    expect(answer.data.refused.map((r) => [r.index, r.reason])).toEqual([
      [UPLOAD_MAX_FILES, 'too_many_files'],
      [UPLOAD_MAX_FILES + 1, 'too_many_files'],
    ]);
  });

  it('refuses photos past the per-ad limit', async () => {
    const { adId, agent } = await modelWithAd({ photos: AD_MAX_PHOTOS - 1 });
    const small = await jpeg(64, 48);
    const res = await upload(agent, adId, [
      { filename: 'last.jpg', data: small },
      { filename: 'one-too-many.jpg', data: small },
    ]);
    expect(res.json<UploadAnswer>().data.refused.map((r) => [r.file, r.reason])).toEqual([['one-too-many.jpg', 'too_many_files']]);
  });

  it('lets only the owner and staff upload: 401 anonymous, 403 others, 404 unknown ads', async () => {
    const { adId } = await modelWithAd();
    const photo = [{ filename: 'a.jpg', data: await jpeg(200, 150) }];
    expect((await upload(await newAgent(t.app), adId, photo)).statusCode).toBe(401);
    const other = await modelWithAd();
    const forbidden = await upload(other.agent, adId, photo);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: 'forbidden' });
    const client = await buildUser(t.database.db, { role: 'client' });
    expect((await upload(await loginAs(t.app, t.database.db, client.id), adId, photo)).statusCode).toBe(403);
    expect((await upload(other.agent, 2_000_000_000, photo)).statusCode).toBe(404);
    expect(fs.existsSync(fileOnDisk(`ads/${adId}`))).toBe(false);
    const admin = await buildUser(t.database.db, { role: 'admin' });
    expect((await upload(await loginAs(t.app, t.database.db, admin.id), adId, photo)).statusCode).toBe(201);
  });
});

describe('POST /api/media/delete and PUT /api/change-cover-picture/{id}', () => {
  async function adWithPhotos(count: number) {
    const m = await modelWithAd();
    const files = await Promise.all(Array.from({ length: count }, (_, i) => jpeg(320, 240, i + 1)));
    const res = await upload(
      m.agent,
      m.adId,
      files.map((data, i) => ({ filename: `p${i}.jpg`, data })),
    );
    return { ...m, photos: res.json<UploadAnswer>().data.media };
  }
  const covers = async (adId: number) =>
    (
      await t.database.db
        .select({ id: media.id })
        .from(media)
        .where(and(eq(media.adId, adId), eq(media.isCover, true)))
    ).map((r) => r.id);

  it('deletes a photo and its files; deleting the cover makes the next photo the cover', async () => {
    const { adId, agent, photos } = await adWithPhotos(3);
    const [first, second, third] = photos;
    const res = await agent.post('/api/media/delete', { media_id: first!.media_id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'notification', type: 'success', message: 'Foto eliminada!', data: { ad_id: adId } });
    expect(
      res.json<{ data: { media: { media_id: number; is_cover: boolean }[] } }>().data.media.map((m) => [m.media_id, m.is_cover]),
    ).toEqual([
      [second!.media_id, true],
      [third!.media_id, false],
    ]);
    expect(await covers(adId)).toEqual([second!.media_id]);
    expect(fs.existsSync(fileOnDisk(`ads/${adId}/${first!.uid}`))).toBe(false);
    expect((await agent.get(first!.url)).statusCode).toBe(404);
    // Not the cover: the cover stays.
    await agent.post('/api/media/delete', { media_id: third!.media_id });
    expect(await covers(adId)).toEqual([second!.media_id]);
    // The last one: no cover left, and nothing to point at.
    await agent.post('/api/media/delete', { media_id: second!.media_id });
    expect(await covers(adId)).toEqual([]);
    expect((await agent.post('/api/media/delete', { media_id: second!.media_id })).statusCode).toBe(404);
  });

  it('keeps exactly one cover when it changes', async () => {
    const { adId, agent, photos } = await adWithPhotos(3);
    const res = await agent.put(`/api/change-cover-picture/${photos[2]!.media_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Foto de portada actualizada!', data: { ad_id: adId } });
    expect(res.json<{ data: { media: { media_id: number; is_cover: boolean }[] } }>().data.media[0]).toMatchObject({
      media_id: photos[2]!.media_id,
      is_cover: true,
    });
    expect(await covers(adId)).toEqual([photos[2]!.media_id]);
    // Again, and on the same photo twice: still one.
    await agent.put(`/api/change-cover-picture/${photos[1]!.media_id}`);
    await agent.put(`/api/change-cover-picture/${photos[1]!.media_id}`);
    expect(await covers(adId)).toEqual([photos[1]!.media_id]);
    // Concurrent changes queue on the ad's row lock: one cover whichever wins.
    await Promise.all(photos.map((p) => agent.put(`/api/change-cover-picture/${p.media_id}`)));
    expect(await covers(adId)).toHaveLength(1);
  });

  it('lets only the owner and staff delete or change the cover', async () => {
    const { photos } = await adWithPhotos(2);
    const other = await modelWithAd();
    const anonymous = await newAgent(t.app);
    expect((await anonymous.post('/api/media/delete', { media_id: photos[0]!.media_id })).statusCode).toBe(401);
    expect((await anonymous.put(`/api/change-cover-picture/${photos[1]!.media_id}`)).statusCode).toBe(401);
    expect((await other.agent.post('/api/media/delete', { media_id: photos[0]!.media_id })).statusCode).toBe(403);
    expect((await other.agent.put(`/api/change-cover-picture/${photos[1]!.media_id}`)).statusCode).toBe(403);
    expect((await other.agent.post('/api/media/delete', { media_id: 2_000_000_000 })).statusCode).toBe(404);
    expect((await other.agent.put('/api/change-cover-picture/2000000000')).statusCode).toBe(404);
    expect((await other.agent.put('/api/change-cover-picture/abc')).statusCode).toBe(404);
    expect((await other.agent.post('/api/media/delete', { media_id: 'x' })).statusCode).toBe(422);
    expect((await other.agent.post('/api/media/delete', {})).statusCode).toBe(422);
    const superAdmin = await buildUser(t.database.db, { role: 'super_admin' });
    const staff = await loginAs(t.app, t.database.db, superAdmin.id);
    expect((await staff.put(`/api/change-cover-picture/${photos[1]!.media_id}`)).statusCode).toBe(200);
    expect((await staff.post('/api/media/delete', { media_id: photos[0]!.media_id })).statusCode).toBe(200);
  });
});

describe('privacy of photos', () => {
  it('serves the photos of an unlisted ad only to its owner and staff', async () => {
    const { adId, agent } = await modelWithAd();
    const res = await upload(agent, adId, [{ filename: 'a.jpg', data: await variedPhoto(700 + adId) }]);
    const photo = res.json<UploadAnswer>().data.media[0]!;
    expect((await adRow(adId)).isListed).toBe(false);

    const anonymous = await newAgent(t.app);
    const hidden = await anonymous.get(photo.url);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.headers['cache-control']).toBe('no-store');
    expect((await (await modelWithAd()).agent.get(photo.url)).statusCode).toBe(404);

    const own = await agent.get(photo.url);
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    const admin = await buildUser(t.database.db, { role: 'admin' });
    expect((await (await loginAs(t.app, t.database.db, admin.id)).get(photo.url)).statusCode).toBe(200);

    // The gallery follows the same rule.
    expect((await anonymous.get(`/api/getImagesByAd/${adId}`)).statusCode).toBe(404);
    const gallery = await agent.get(`/api/getImagesByAd/${adId}`);
    expect(gallery.statusCode).toBe(200);
    expect(gallery.json()).toMatchObject({ data: [{ media_id: photo.media_id, is_cover: true }] });
  });

  it('serves the photos of a listed ad to everyone, cached for minutes and revalidated, not for a year', async () => {
    const { adId, agent } = await modelWithAd();
    const res = await upload(agent, adId, [{ filename: 'a.jpg', data: await variedPhoto(700 + adId) }]);
    const photo = res.json<UploadAnswer>().data.media[0]!;
    // Staff approve the ad (the trigger lists it again).
    await t.database.db.update(ads).set({ status: 'active' }).where(eq(ads.id, adId));
    expect((await adRow(adId)).isListed).toBe(true);
    const anonymous = await newAgent(t.app);
    for (const url of [photo.url, ...photo.srcset.split(', ').map((s) => s.split(' ')[0]!)]) {
      const file = await anonymous.get(url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['cache-control']).toBe(`public, max-age=${PUBLIC_MAX_AGE_S}`);
    }
    expect(PUBLIC_MAX_AGE_S).toBeLessThanOrEqual(300);
    const again = await anonymous.get(photo.url);
    expect(
      (await anonymous.request({ method: 'GET', url: photo.url, headers: { 'if-none-match': String(again.headers.etag) } })).statusCode,
    ).toBe(304);
    expect((await anonymous.get(`/api/getImagesByAd/${adId}`)).statusCode).toBe(200);
  });

  // Issue 24 A6: what a cache kept must stop being shown once the ad or the account is taken down.
  it.each([
    ['the ad is suspended', (adId: number, _userId: number) => ({ subject_type: 'ad', subject_id: adId, action: 'suspend' })],
    ['the account is suspended', (_adId: number, userId: number) => ({ subject_type: 'user', subject_id: userId, action: 'suspend' })],
  ])('once %s, the photo URL is a 404 for everyone, and a cache asking again is told so', async (_what, decision) => {
    const { adId, agent, userId } = await modelWithAd();
    const res = await upload(agent, adId, [{ filename: 'a.jpg', data: await variedPhoto(700 + adId) }]);
    const photo = res.json<UploadAnswer>().data.media[0]!;
    await t.database.db.update(ads).set({ status: 'active' }).where(eq(ads.id, adId));
    const anonymous = await newAgent(t.app);
    const before = await anonymous.get(photo.url);
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).not.toMatch(/immutable|31536000/);

    const admin = await loginAs(t.app, t.database.db, (await buildUser(t.database.db, { role: 'admin' })).id);
    const decided = await admin.post('/api/admin/decisions', {
      ...decision(adId, userId),
      reason_codes: ['spam'],
      text: 'Contenido retirado tras una denuncia.',
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const after = await anonymous.get(photo.url);
    expect(after.statusCode).toBe(404);
    expect(after.headers['cache-control']).toBe('no-store');
    // A shared cache revalidating its copy (If-None-Match) gets the 404, not a 304 that would keep the photo alive.
    const revalidated = await anonymous.request({
      method: 'GET',
      url: photo.url,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(404);
    expect(revalidated.headers['content-type']).not.toBe('image/webp');
  });

  it('serves nothing else from storage', async () => {
    const anonymous = await newAgent(t.app);
    // Files other modules keep in storage (the demo's illustration pool, verification selfies) really are there.
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    await t.app.storage.put('demo/women-0/800.webp', webp);
    await t.app.storage.put('verification/x.webp', webp);
    for (const url of [
      '/media/demo/women-0/800.webp',
      '/media/ads/1/not-a-uid/800.webp',
      '/media/ads/1/../../demo/women-0/800.webp',
      '/media/verification/x.webp',
    ]) {
      const res = await anonymous.get(url);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.headers['content-type']).not.toBe('image/webp');
    }
    // A dot-dot path is normalised before routing: it never reaches the media route (here: the app shell).
    expect((await anonymous.get('/media/%2e%2e/verification/x.webp')).headers['content-type']).not.toBe('image/webp');
  });
});

describe('loadEditableAd', () => {
  it('answers the ad for its owner and staff, and 401 / 403 / 404 otherwise', async () => {
    const { adId, userId } = await buildModel(t.database.db, { name: 'Dueña' });
    const db = t.database.db;
    const owner = { id: userId, role: 'model' as const };
    const ad = await loadEditableAd(db, owner as never, adId);
    expect(ad).toMatchObject({ id: adId, ownerUserId: userId });
    await expect(loadEditableAd(db, null, adId)).rejects.toMatchObject({ status: 401 });
    await expect(loadEditableAd(db, { id: userId + 100_000, role: 'model' } as never, adId)).rejects.toMatchObject({ status: 403 });
    await expect(loadEditableAd(db, { id: userId + 100_000, role: 'admin' } as never, adId)).resolves.toMatchObject({ id: adId });
    await expect(loadEditableAd(db, owner as never, 2_000_000_000)).rejects.toMatchObject({ status: 404 });
  });
});
