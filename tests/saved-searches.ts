/** Shared steps of the saved-searches server tests. */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { API } from '#contract/routes.ts';
import type { SavedSearch } from '#contract/saved-searches.ts';
import type { Db } from '#server/db/client.ts';
import { ads } from '#server/db/schema.ts';
import type { Agent } from './agent.ts';
import { buildModel, type ModelSpec } from './factories.ts';

export async function saveSearch(agent: Agent, body: Record<string, unknown>): Promise<SavedSearch> {
  const res = await agent.post(API.savedSearches, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: SavedSearch }>().data;
}

/** An ad built hidden (pending review), then approved as staff does: is_listed turns true in its own statement. */
export async function approvedAd(db: Db, spec: ModelSpec): Promise<number> {
  const m = await buildModel(db, { ...spec, adStatus: 'pending' });
  await db.update(ads).set({ status: 'active' }).where(eq(ads.id, m.adId));
  return m.adId;
}
