/**
 * The cover photos kept for offline use by the favourites and the recently viewed row (issue 28), in Cache Storage
 * caches of their own: the worker's photo cache (sw/runtime-cache.ts) evicts the least used, these keep exactly what
 * their list shows, and the worker answers from them when the network and its own cache fail (sw/sw.ts). A photo of
 * an ad that is no longer available is dropped from them (it must not be shown again, not even from a cache).
 */
import type { Image } from '#contract/listings.ts';
import { FAVOURITE_PHOTOS_CACHE, RECENT_PHOTOS_CACHE } from '../../sw/runtime-cache.ts';

export { FAVOURITE_PHOTOS_CACHE, RECENT_PHOTOS_CACHE };

/**
 * The one URL a kept card shows: the smallest variant (a card is a phone's half width), not the srcset, so what is
 * shown offline is exactly what was kept.
 */
export function keptPhotoUrl(image: Image | null | undefined): string | null {
  if (!image) return null;
  let best: { url: string; w: number } | undefined;
  for (const part of image.srcset.split(',')) {
    const [url, width] = part.trim().split(/\s+/);
    const w = Number.parseInt(width ?? '', 10);
    if (url && Number.isFinite(w) && (!best || w < best.w)) best = { url, w };
  }
  return best?.url ?? image.url;
}

const hasCaches = () => typeof caches !== 'undefined';

/** Keeps exactly `urls` in the cache: missing ones are copied from another cache or fetched, the others deleted. */
export async function keepOnlyPhotos(cacheName: string, urls: Iterable<string>): Promise<void> {
  if (!hasCaches()) return;
  try {
    const cache = await caches.open(cacheName);
    const wanted = new Set([...urls].map((u) => new URL(u, location.href).href));
    for (const req of await cache.keys()) if (!wanted.has(req.url)) await cache.delete(req);
    for (const url of wanted) {
      if (await cache.match(url)) continue;
      // Just seen, it is usually in the worker's photo cache already: copied, so this works offline too.
      const copy =
        (await caches.match(url)) ??
        (navigator.onLine ? await fetch(url, { credentials: 'same-origin' }).catch(() => undefined) : undefined);
      if (copy?.ok) await cache.put(url, copy.clone());
    }
  } catch {
    // Storage refused (quota, private mode): the list still works, without its photos offline.
  }
}

/** Adds one photo to the cache (the others stay). */
export async function keepPhoto(cacheName: string, url: string | null): Promise<void> {
  if (!url || !hasCaches()) return;
  try {
    const cache = await caches.open(cacheName);
    if (await cache.match(url)) return;
    const copy =
      (await caches.match(url)) ?? (navigator.onLine ? await fetch(url, { credentials: 'same-origin' }).catch(() => undefined) : undefined);
    if (copy?.ok) await cache.put(url, copy.clone());
  } catch {
    // As above: without the photo offline.
  }
}

export async function dropPhotos(cacheName: string): Promise<void> {
  if (hasCaches()) await caches.delete(cacheName).catch(() => undefined);
}
