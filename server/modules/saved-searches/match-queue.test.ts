/**
 * The match job of an ad that becomes listed again while its previous job is still in `jobs` (migration 0024). The
 * trigger used to insert with `ON CONFLICT (key) DO NOTHING`: a job failed for good (kept with failed_at), one waiting
 * for its retry, or one running that read the ad before the change then swallowed the new listing, and the searches it
 * matches were never alerted.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { ads, jobs } from '#server/db/schema.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { CITY, findCity } from '#tests/factories.ts';
import { approvedAd, saveSearch } from '#tests/saved-searches.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { PermanentJobError, type JobHandler } from '../jobs/jobs.ts';
import { MATCH_JOB, matchAd } from './matching.ts';

let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The module's own handler, as saved-searches.routes.ts registers it. */
const realMatch: JobHandler = (payload, job, now) => matchAd(t.app, Number(payload.ad_id), job.createdAt, now);
afterEach(() => t.app.jobs.register(MATCH_JOB, realMatch));

async function alertedAds(agent: Agent, searchId: number): Promise<string[]> {
  const res = await agent.get(API.notifications);
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<NotificationList>()
    .data.filter((n) => n.kind === 'saved_search' && n.data.subject_id === searchId)
    .map((n) => n.data.link ?? '');
}

async function matchJob(adId: number) {
  const [row] = await db()
    .select()
    .from(jobs)
    .where(eq(jobs.key, `${MATCH_JOB}:${adId}`));
  return row;
}

/** The ad leaves the listing and comes back (its owner switches it off and on): is_listed turns true again. */
async function relist(adId: number): Promise<void> {
  await db().update(ads).set({ isActive: false }).where(eq(ads.id, adId));
  await db().update(ads).set({ isActive: true }).where(eq(ads.id, adId));
}

/** An instant search in a city of its own and an approved ad there, whose first match job fails as `fail` says. */
async function adWhoseMatchFails(city: string, fail: () => never) {
  const { agent } = await signedIn(t.app, db(), { role: 'client' });
  const s = await saveSearch(agent, { name: city, city: (await findCity(db(), city)).id });
  t.app.jobs.register(MATCH_JOB, async () => fail());
  const adId = await approvedAd(db(), { name: 'Covadonga', city, section: 'women' });
  await drainJobs(t.app);
  t.app.jobs.register(MATCH_JOB, realMatch);
  return { agent, s, adId };
}

describe('an ad listed again while its previous match job is still in the jobs table', () => {
  it('is matched again after a job that failed for good', async () => {
    const { agent, s, adId } = await adWhoseMatchFails(CITY.aviles, () => {
      throw new PermanentJobError('database unreachable');
    });
    expect((await matchJob(adId))?.failedAt).not.toBeNull();
    expect(await alertedAds(agent, s.id)).toEqual([]);

    await relist(adId);
    const row = await matchJob(adId);
    expect(row).toMatchObject({ failedAt: null, attempts: 0, lockedUntil: null, lastError: null });
    await drainJobs(t.app);
    expect(await alertedAds(agent, s.id)).toEqual([expect.stringContaining(`new=${adId}`)]);
    expect(await matchJob(adId)).toBeUndefined();
  });

  it('is matched at once, not at the back-off, when the job still waits for its retry', async () => {
    const { agent, s, adId } = await adWhoseMatchFails(CITY.oviedo, () => {
      throw new Error('connection reset');
    });
    const waiting = await matchJob(adId);
    expect(waiting).toMatchObject({ failedAt: null, attempts: 1 });
    expect(waiting!.runAt.getTime()).toBeGreaterThan(Date.now());

    await relist(adId);
    const row = await matchJob(adId);
    expect(row!.id).toBe(waiting!.id); // still one job for the ad
    expect(row!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    await drainJobs(t.app);
    expect(await alertedAds(agent, s.id)).toEqual([expect.stringContaining(`new=${adId}`)]);
  });

  it('runs once more when the ad is listed again while its job runs', async () => {
    const { agent } = await signedIn(t.app, db(), { role: 'client' });
    const s = await saveSearch(agent, { name: 'Gijón', city: (await findCity(db(), CITY.gijon)).id });
    let runs = 0;
    // The first run read the ad before it went away and came back (as a job on another node may): it matched nothing.
    t.app.jobs.register(MATCH_JOB, async (payload, job, now) => {
      runs += 1;
      if (runs === 1) return relist(Number(payload.ad_id));
      return realMatch(payload, job, now);
    });
    const adId = await approvedAd(db(), { name: 'Xana', city: CITY.gijon, section: 'women' });
    await drainJobs(t.app);
    expect(runs).toBe(2);
    expect(await alertedAds(agent, s.id)).toEqual([expect.stringContaining(`new=${adId}`)]);
    expect(await matchJob(adId)).toBeUndefined();
  });
});
