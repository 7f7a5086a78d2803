/**
 * Recently viewed (issue 28), the part pages load with their first screen: recording a model page opened and being
 * told when the list changed. The list itself (recent-views-store.ts: IndexedDB, the photos kept offline) loads on
 * demand, so the home's first paint does not carry it. Never sent to any server: the list is this device's.
 */
import type { ModelCard } from '#contract/listings.ts';
import type * as StoreModule from './recent-views-store.ts';

import { deviceMayHaveDatabase, RECENT_VIEWS_DB_NAME } from './device-databases.ts';

type Store = typeof StoreModule;

/** Whether this device may have viewed any model (false on a first visit), asked without loading the list's code. */
export const deviceMayHaveRecentViews = () => deviceMayHaveDatabase(RECENT_VIEWS_DB_NAME);
let store: Promise<Store> | undefined;

export function loadRecentViewsStore(): Promise<Store> {
  store ??= import('./recent-views-store.ts');
  store.catch(() => (store = undefined));
  return store;
}

/** Only what a card shows (the model page's answer carries more: description, phone…, none of it kept here). */
export function cardOf(model: ModelCard): ModelCard {
  const { id, user_id, name, title, excerpt, age, city, section, status, verified, cover, published_at } = model;
  return { id, user_id, name, title, excerpt, age, city: { id: city.id, name: city.name }, section, status, verified, cover, published_at };
}

/** Records a model page opened on this device (newest first, the last 30 kept). */
export function recordRecentView(model: ModelCard): void {
  void loadRecentViewsStore()
    .then((s) => s.record(cardOf(model)))
    .catch(() => undefined);
}
