/**
 * Adding a visitor's device favourites to an account (issue 28), shared by the favourites module (the merge after
 * sign-in) and registration (auth/accounts.ts): here, outside both modules, so neither depends on the other's
 * (favourites reads the listing's cards, whose module leads back to auth).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { MAX_FAVOURITES, type DeviceFavourite } from '#contract/favourites.ts';
import type { Db } from '../db/client.ts';
import { ads, favourites } from '../db/schema.ts';

/** The device's list, once per ad, each with its earliest date (none, or one in the future: now). */
function normalised(list: DeviceFavourite[], now: Date): Map<number, Date> {
  const out = new Map<number, Date>();
  for (const f of list) {
    const id = Number(f.ad_id);
    const at = f.saved_at ? new Date(f.saved_at) : now;
    const when = Number.isNaN(at.getTime()) || at > now ? now : at;
    const had = out.get(id);
    if (!had || when < had) out.set(id, when);
  }
  return out;
}

/**
 * Adds a device's favourites to an account in the given transaction: a set union (an ad saved on both keeps its
 * earliest date), ads that no longer exist skipped, and never past MAX_FAVOURITES (the device's newest first).
 * Shared by the merge at sign-in and registration (auth/accounts.ts).
 */
export async function mergeFavouritesInto(tx: Db, userId: number, list: DeviceFavourite[], now = new Date()): Promise<void> {
  const wanted = normalised(list, now);
  if (wanted.size === 0) return;
  const existingAds = new Set(
    (
      await tx
        .select({ id: ads.id })
        .from(ads)
        .where(inArray(ads.id, [...wanted.keys()]))
    ).map((r) => r.id),
  );
  const have = new Set(
    (await tx.select({ adId: favourites.adId }).from(favourites).where(eq(favourites.userId, userId))).map((r) => r.adId),
  );
  const room = Math.max(0, MAX_FAVOURITES - have.size);
  const fresh = [...wanted].filter(([id]) => existingAds.has(id) && !have.has(id)).sort((a, b) => b[1].getTime() - a[1].getTime());
  const kept = [...wanted].filter(([id]) => have.has(id));
  const values = [...kept, ...fresh.slice(0, room)].map(([adId, createdAt]) => ({ userId, adId, createdAt }));
  if (values.length === 0) return;
  await tx
    .insert(favourites)
    .values(values)
    .onConflictDoUpdate({
      target: [favourites.userId, favourites.adId],
      set: { createdAt: sql`least(${favourites.createdAt}, excluded.created_at)` },
    });
}
