/**
 * The links of saved searches (issue 28): the listing at an alert's new ads (`new=`) and the e-mail's unsubscribe
 * page. No zod here: the home's filter bar reads `new=` on the first load, which is held to its JS budget.
 */

/** The listing's query parameter naming the new ads an alert opens the listing at (`new=12,15,18`). */
export const NEW_ADS_PARAM = 'new';
/** Most new ads an alert's link names (the strip shows these; the listing itself has the rest). */
export const NEW_ADS_MAX = 30;

/** The listing (language-neutral path, as notifications' `data.link`) with a search's filters, at its new ads. */
export function savedSearchListingPath(
  s: { search: string; city: { id: number } | null; section: { slug: string } | null },
  newAds: readonly number[] = [],
): string {
  const q = new URLSearchParams();
  if (s.search) q.set('search', s.search);
  if (s.city) q.set('city', String(s.city.id));
  if (s.section) q.set('section', s.section.slug);
  if (newAds.length) q.set(NEW_ADS_PARAM, newAds.slice(0, NEW_ADS_MAX).join(','));
  const query = q.toString();
  return query ? `/?${query}` : '/';
}

/** The e-mail's unsubscribe page (language-neutral; the PWA routes it under `/{lng}`). */
export const savedSearchUnsubscribePath = (id: number, token: string) => `/saved-searches/unsubscribe/${id}/${token}`;

/** Ad ids from the listing's `new=` parameter: positive integers, at most NEW_ADS_MAX, in order, no repeats. */
export function parseNewAds(value: string | null | undefined): number[] {
  if (!value) return [];
  const ids: number[] = [];
  for (const part of value.split(',')) {
    const n = Number(part);
    if (/^\d{1,10}$/.test(part) && n > 0 && n <= 2_147_483_647 && !ids.includes(n)) ids.push(n);
    if (ids.length === NEW_ADS_MAX) break;
  }
  return ids;
}
