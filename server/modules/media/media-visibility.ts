/**
 * Who may see an ad's photo files: everyone when the ad is publicly listed (`ads.is_listed`, kept by the database's
 * triggers), otherwise only its owner, the publicist responsible for the model, and staff — and only files of a photo
 * that has its media row: a file a crash left without one (stored, then the process killed before the row was
 * committed) is served to nobody, its owner included. Answers are cached per ad for a few seconds (a page of listings asks
 * for dozens of files of the same ads); any catalogue change made through this process (plugins/catalogue.ts) clears
 * the cache at once, changes made elsewhere (another process, a database script) are seen within the TTL.
 */
import { eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { ads, media, modelProfiles, publicistProfiles } from '../../db/schema.ts';

export interface AdVisibility {
  listed: boolean;
  ownerUserId: number | null;
  /** The responsible publicist's account, for a publicist's model. */
  publicistUserId: number | null;
  /** The ad's photos that have a row: uid → the widths stored for it. */
  photos: ReadonlyMap<string, readonly number[]>;
}

export interface VisibilityCache {
  /** null: no such ad. */
  get(adId: number): Promise<AdVisibility | null>;
  forget(adId: number): void;
  /** Forget every ad (the catalogue changed somewhere). */
  clear(): void;
}

export const VISIBILITY_TTL_MS = 10_000;

/** `onLookup`: told whether each lookup was answered from the cache (the metrics' cache hit rate). */
export function createVisibilityCache(db: Db, ttlMs = VISIBILITY_TTL_MS, onLookup?: (hit: boolean) => void): VisibilityCache {
  // Misses (unknown ads) are cached too, as `false`: a scraper walking ids costs one query per id per TTL.
  const cache = new LRUCache<number, AdVisibility | false>({ max: 10_000, ttl: ttlMs });
  return {
    async get(adId) {
      const hit = cache.get(adId);
      onLookup?.(hit !== undefined);
      if (hit !== undefined) return hit || null;
      // One round trip: the ad's photos come along as a JSON list (at most AD_MAX_PHOTOS, through media_ad_idx).
      const [row] = await db
        .select({
          listed: ads.isListed,
          ownerUserId: modelProfiles.userId,
          publicistUserId: publicistProfiles.userId,
          photos: sql<
            [string, number[]][] | null
          >`(select json_agg(json_build_array(${media.uid}, ${media.variants})) from ${media} where ${media.adId} = ${ads.id})`,
        })
        .from(ads)
        .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
        .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
        .where(eq(ads.id, adId));
      const seen: AdVisibility | false = row ? { ...row, photos: new Map(row.photos ?? []) } : false;
      cache.set(adId, seen);
      return seen || null;
    },
    forget(adId) {
      cache.delete(adId);
    },
    clear() {
      cache.clear();
    },
  };
}
