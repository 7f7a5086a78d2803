import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelList } from '#contract/listings.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { loginAs } from '../modules/media/test-helpers.ts';
import { buildModel, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let admin: Agent;
let visitor: Agent;
let model: BuiltModel;
const NAME = 'Catalina Cachéprueba';

beforeAll(async () => {
  // The default 5 s micro-cache is on: without invalidation every second read below would be a stale hit.
  t = await createTestApp();
  expect(t.config.listingsCacheTtlMs).toBeGreaterThan(0);
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
  visitor = await newAgent(t.app);
  model = await buildModel(t.database.db, { name: NAME });
});
afterAll(async () => {
  await t.close();
});

const listed = async () => {
  const res = await visitor.get(`/api/models?search=${encodeURIComponent('Cachéprueba')}`);
  expect(res.statusCode).toBe(200);
  return res.json<ModelList>().data.map((c) => c.id);
};

describe('catalogue changes reach the cached listings at once', () => {
  it('a suspension by staff disappears from the next listing; reinstating brings it back', async () => {
    expect(await listed()).toContain(model.adId);
    expect(await listed()).toContain(model.adId); // now a cache hit

    const suspend = await admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: model.adId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Anuncio repetido muchas veces.',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect(await listed()).not.toContain(model.adId);

    const reinstate = await admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: model.adId, action: 'reinstate' });
    expect(reinstate.statusCode, reinstate.body).toBe(200);
    expect(await listed()).toContain(model.adId);
  });

  it('writes that cannot change the catalogue, and failed writes, keep the cache', async () => {
    const before = t.app.catalogue.generation;
    const report = await visitor.post('/api/reports', {
      ad_id: model.adId,
      reason: 'spam',
      details: 'Este anuncio parece publicidad engañosa.',
    });
    expect(report.statusCode, report.body).toBe(201);
    expect((await visitor.post('/api/login', { email: 'nadie@vitrina.test', password: 'wrong password 123' })).statusCode).toBe(422);
    expect((await admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: model.adId })).statusCode).toBe(422);
    expect(t.app.catalogue.generation).toBe(before);
  });

  it('the owner switching the ad off is seen at once', async () => {
    expect(await listed()).toContain(model.adId);
    const owner = await loginAs(t.app, t.database.db, model.userId);
    const off = await owner.put(`/api/profile/model/activate/${model.adId}/0`);
    expect(off.statusCode, off.body).toBe(200);
    expect(await listed()).not.toContain(model.adId);
  });
});
