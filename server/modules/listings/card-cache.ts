/**
 * Listing cards serialized once per version: a page is read as its ads' ids and card versions (listing_page,
 * search_page), each card's JSON is taken from this process's cache when it holds that version, and only the others'
 * rows are read (listing_cards) and serialized. ads.card_version goes up, by triggers, with every change to what a card
 * shows (migration 0016), so a cached card is never stale; the age it shows changes with the day and the section's
 * name with the language, so both are in the key. Per process and bounded: another node keeps its own, and an evicted
 * card is only serialized again.
 */
import { LRUCache } from 'lru-cache';
import type { Language } from '#contract/languages.ts';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../plugins/storage.ts';
import { toCard } from './cards.ts';
import { cardRows, type CardRef, type ListingRow } from './listings.repository.ts';

export interface CardCache {
  /**
   * The page's cards as JSON texts, in the page's order. A card whose ad stopped being listed between the page's read
   * and its rows' is left out (the page shows one card fewer, as if read a moment later).
   */
  cards(db: Db, refs: CardRef[], lang: Language, known?: ListingRow[]): Promise<string[]>;
}

/** ≈ 0.5 KB a card: the default (LISTING_CARDS_CACHED) holds 20,000 cards (≈10 MB). 0 keeps none. */
export function createCardCache(storage: Storage, max: number, onLookup?: (hit: boolean) => void): CardCache {
  // lru-cache refuses max 0; a cache of one that is never read is the same as none.
  const cache = max > 0 ? new LRUCache<string, string>({ max }) : undefined;
  return {
    async cards(db, refs, lang, known) {
      const now = new Date();
      const day = now.toISOString().slice(0, 10);
      const keyOf = (id: number, version: number) => `${id}:${version}:${lang}:${day}`;
      const out: (string | undefined)[] = refs.map((r) => cache?.get(keyOf(r.id, r.version)));
      const missing = refs.filter((_r, i) => out[i] === undefined);
      if (onLookup) out.forEach((json) => onLookup(json !== undefined));
      if (missing.length === 0) return out as string[];
      const wanted = new Set(missing.map((r) => r.id));
      const rows = known?.length ? known.filter((r) => wanted.has(r.id)) : await cardRows(db, [...wanted]);
      const byId = new Map<number, string>();
      for (const row of rows) {
        const json = JSON.stringify(toCard(storage, row, lang, now));
        // Keyed by the version the row was read at: the freshest, even if the page was read a moment before.
        cache?.set(keyOf(row.id, row.card_version), json);
        byId.set(row.id, json);
      }
      const page: string[] = [];
      refs.forEach((r, i) => {
        const json = out[i] ?? byId.get(r.id);
        if (json !== undefined) page.push(json);
      });
      return page;
    },
  };
}
