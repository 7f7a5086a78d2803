/**
 * Who may see an ad's photo files: everyone when the ad is publicly listed (`ads.is_listed`, kept by the database's
 * triggers), otherwise only its owner, the publicist responsible for the model, and staff. Answers are cached per ad for a few seconds (a page of listings asks
 * for dozens of files of the same ads); any catalogue change made through this process (plugins/catalogue.ts) clears
 * the cache at once, changes made elsewhere (another process, a database script) are seen within the TTL.
 */
import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { ads, modelProfiles, publicistProfiles } from '../../db/schema.ts';

export interface AdVisibility {
  listed: boolean;
  ownerUserId: number | null;
  /** The responsible publicist's account, for a publicist's model. */
  publicistUserId: number | null;
}

export interface VisibilityCache {
  /** null: no such ad. */
  get(adId: number): Promise<AdVisibility | null>;
  forget(adId: number): void;
  /** Forget every ad (the catalogue changed somewhere). */
  clear(): void;
}

export const VISIBILITY_TTL_MS = 10_000;

export function createVisibilityCache(db: Db, ttlMs = VISIBILITY_TTL_MS): VisibilityCache {
  // Misses (unknown ads) are cached too, as `false`: a scraper walking ids costs one query per id per TTL.
  const cache = new LRUCache<number, AdVisibility | false>({ max: 10_000, ttl: ttlMs });
  return {
    async get(adId) {
      const hit = cache.get(adId);
      if (hit !== undefined) return hit || null;
      const [row] = await db
        .select({ listed: ads.isListed, ownerUserId: modelProfiles.userId, publicistUserId: publicistProfiles.userId })
        .from(ads)
        .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
        .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
        .where(eq(ads.id, adId));
      cache.set(adId, row ?? false);
      return row ?? null;
    },
    forget(adId) {
      cache.delete(adId);
    },
    clear() {
      cache.clear();
    },
  };
}
