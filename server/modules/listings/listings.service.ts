/**
 * What the browse routes do (listings.routes.ts stays parse → call → answer). The listing and the map answers are
 * micro-cached as serialized bytes for a few seconds (visitors hammer the same first pages); any catalogue change made
 * through this process empties the cache at once (plugins/catalogue.ts). `createListings` holds those caches, one per
 * app.
 */
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { Image, ModelList, ModelsMap, modelsMapQuerySchema, modelsQuerySchema, PublicityAd } from '#contract/listings.ts';
import type { Language } from '#contract/languages.ts';
import { pageMeta } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { Storage } from '../../plugins/storage.ts';
import { adStatsCounter, type AdView } from '../ad-stats/ad-counter.ts';
import { findEditableAd } from '../media/ad-access.ts';
import { toImage } from '../media/images.ts';
import { listAdPhotos } from '../media/media.repository.ts';
import { createCardCache } from './card-cache.ts';
import { toCard } from './cards.ts';
import { cityCentre } from './city-centre.ts';
import { activePublicityAds, countByCity, findVisibleAd, findVisibleAdOfUser, listModels, sectionIdBySlug } from './listings.repository.ts';

/** PostgreSQL text cannot hold NUL (the query would fail with a 500), and no control character helps a search. */
function cleanSearch(search: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex
  return search?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || undefined;
}

async function sectionIdOf(db: Db, section: string | number | undefined): Promise<number | undefined> {
  return typeof section === 'string' ? sectionIdBySlug(db, section) : section;
}

/** A listing page as sent, with the ads it shows (counted as impressions on every serving, cached or not). */
interface ListingAnswer {
  bytes: Buffer;
  adIds: number[];
}

/**
 * The listing and map answers, cached per app (LISTINGS_CACHE_TTL_MS, default 5 s; 0 turns the cache off). Every
 * listing page and model page served is counted for the advertisers' numbers (ad-stats/ad-counter.ts: in memory,
 * written once a minute), the server-rendered first screen included, since it asks these same routes.
 */
export function createListings(app: FastifyInstance) {
  const ttl = app.config.listingsCacheTtlMs;
  // The serialized bytes are cached, not the object: a hit then costs no serialization at all (about half the work
  // of a hit otherwise). Bounded by size too, since a page with long texts can be tens of KB. lru-cache reads ttl 0
  // as "never expires", hence no cache then.
  const cache =
    ttl > 0
      ? new LRUCache<string, Buffer | ListingAnswer>({
          max: 1000,
          maxSize: 32 * 1024 * 1024,
          sizeCalculation: (b) => (Buffer.isBuffer(b) ? b.length : b.bytes.length + 8 * b.adIds.length),
          ttl,
        })
      : undefined;
  const counter = adStatsCounter(app);
  if (cache) app.catalogue.onChange(() => cache.clear());
  const cardCache = createCardCache(app.storage, app.config.listingCardsCached, (hit) => app.metrics.cacheLookup('listing-cards', hit));

  const cached = (key: string) => {
    const hit = cache?.get(key);
    if (cache) app.metrics.cacheLookup('listings', hit !== undefined);
    return hit;
  };

  return {
    /**
     * A page of the listing as JSON bytes, assembled from the cards' own JSON (each serialized once per version): the
     * same text JSON.stringify would give for `{ data, meta }` (contract: modelListSchema).
     */
    async models(q: z.output<typeof modelsQuerySchema>, lang: Language, view?: AdView): Promise<Buffer> {
      const search = cleanSearch(q.search);
      const literal = q.literal === '1';
      const key = JSON.stringify([lang, search ?? '', literal, q.city ?? 0, q.section ?? '', q.page, q.per_page]);
      const hit = cached(key);
      if (hit && !Buffer.isBuffer(hit)) {
        counter.count('impressions', hit.adIds, view);
        return hit.bytes;
      }
      const generation = app.catalogue.generation;
      const page = await listModels(app.db, {
        search,
        literal,
        cityId: q.city,
        sectionId: await sectionIdOf(app.db, q.section),
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      const cards = await cardCache.cards(app.db, page.refs, lang, page.rows);
      const meta: ModelList['meta'] = {
        ...pageMeta(q.page, q.per_page, page.total, cards.length),
        ...(page.corrected ? { corrections: page.corrected.corrections, corrected_search: page.corrected.search } : {}),
      };
      const bytes = Buffer.from(`{"data":[${cards.join(',')}],"meta":${JSON.stringify(meta)}}`);
      const adIds = page.refs.map((r) => r.id);
      counter.count('impressions', adIds, view);
      // Not when the catalogue changed while we read it: this answer may predate the change.
      if (cache && app.catalogue.generation === generation) cache.set(key, { bytes, adIds });
      return bytes;
    },

    /**
     * The listing's filters counted per city: bytes when the cache is on (`serialize` is the route's serializer, so
     * the cached text is what the route would send), the object otherwise.
     */
    async modelsMap(q: z.output<typeof modelsMapQuerySchema>, serialize: (body: ModelsMap) => string): Promise<Buffer | ModelsMap> {
      const search = cleanSearch(q.search);
      const literal = q.literal === '1';
      const key = JSON.stringify(['map', search ?? '', literal, q.section ?? '']);
      const hit = cached(key);
      if (Buffer.isBuffer(hit)) return hit;
      const generation = app.catalogue.generation;
      const { cities, corrected } = await countByCity(app.db, { search, literal, sectionId: await sectionIdOf(app.db, q.section) });
      const body: ModelsMap = {
        data: cities.map((c) => ({
          city: { id: c.city_id, name: c.city_name, state: c.state_name },
          latitude: c.latitude,
          longitude: c.longitude,
          count: c.count,
        })),
        meta: { total: cities.reduce((n, c) => n + c.count, 0), ...(corrected ? { corrections: corrected.corrections } : {}) },
      };
      if (!cache) return body;
      const bytes = Buffer.from(serialize(body));
      if (app.catalogue.generation === generation) cache.set(key, bytes);
      return bytes;
    },

    /** A listed ad's page (modelDetail), counted as an open of the ad unless its owner is looking or it is a prefetch. */
    async model(id: number, lang: Language, view?: AdView) {
      const detail = await modelDetail(app.db, app.storage, id, lang);
      counter.count('opens', [detail.id], view);
      return detail;
    },
  };
}

/** A listed ad's page: its card, the city's centre for the map, and the texts the card leaves out. */
export async function modelDetail(db: Db, storage: Storage, id: number, lang: Language) {
  const row = await findVisibleAd(db, id);
  if (!row) throw notFound();
  const card = toCard(storage, row, lang);
  const centre = await cityCentre(db, row.city_id);
  return {
    ...card,
    city: { ...card.city, latitude: centre?.latitude ?? null, longitude: centre?.longitude ?? null },
    description: row.description,
    phone: row.phone,
    whatsapp: row.whatsapp,
    state: row.state_name,
  };
}

/**
 * An ad's gallery. Visitors see the photos of listed ads; the owner and staff also those of an ad that is not (or not
 * yet) listed, and then `listed` is false (the answer must not be cached).
 */
export async function adGallery(db: Db, storage: Storage, user: SessionUser | null | undefined, adId: number) {
  const listed = await findVisibleAd(db, adId);
  const id = listed?.id ?? (await findEditableAd(db, user ?? null, adId))?.id;
  if (!id) throw notFound();
  const images: Image[] = (await listAdPhotos(db, id)).map((m) => toImage(storage, m));
  return { images, listed: Boolean(listed) };
}

/** The cover picture of a user's listed ad. */
export async function coverImageOf(db: Db, storage: Storage, userId: number, lang: Language): Promise<Image | null> {
  const ad = await findVisibleAdOfUser(db, userId);
  if (!ad) throw notFound();
  return toCard(storage, ad, lang).cover;
}

/** The promoted placements running now, in their order. */
export async function publicityAds(db: Db, storage: Storage): Promise<PublicityAd[]> {
  return (await activePublicityAds(db, new Date())).map((p) => ({
    id: p.id,
    title: p.title,
    body: p.body,
    advertiser: p.advertiser,
    image_url: p.imageKey ? storage.url(p.imageKey) : null,
    target_url: p.targetUrl,
  }));
}
