/**
 * Alerts of saved searches (issue 28): at most one per search per day, bundling every ad matched since the last one.
 *
 * - `instant`: the search's alert job (scheduled by the match, matching.ts) stores a notification of kind
 *   `saved_search` in the owner's language, which is pushed to their devices (push category `saved_searches`) and
 *   broadcast after the commit. Ads matched after today's alert wait for the job a day after it.
 * - `daily`: one digest job per user: one e-mail naming each of their daily searches' new ads, with a link to each
 *   search's listing and a signed one-click unsubscribe link per search; plus the stored notifications, not pushed.
 *   Its `List-Unsubscribe` / `List-Unsubscribe-Post` headers (RFC 8058) let the mail client turn off, in one click,
 *   the alerts of every search it names.
 * - `off` and paused searches never alert (and their pending hits were dropped when they became so).
 *
 * Each pending ad is checked again with the listing's rules when the alert goes (listingShowsAd): an ad taken down
 * since it matched is not announced. The notification's `data.link` opens the listing with the search's filters at
 * the new ads (`new=`).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { toLanguage } from '#contract/languages.ts';
import { API } from '#contract/routes.ts';
import { savedSearchListingPath, savedSearchUnsubscribePath } from '#contract/saved-searches.ts';
import type { Db } from '../../db/client.ts';
import type { JobOutcome } from '../jobs/jobs.ts';
import { queueMail } from '../jobs/mail-job.ts';
import { listingShowsAd } from '../listings/listings.repository.ts';
import { storeNotification, type PendingNotification } from '../notifications/notifications.ts';
import { ALERT_INTERVAL_MS } from './matching.ts';
import { unsubscribeToken } from './saved-searches.ts';

interface SearchRow {
  id: number;
  user_id: number;
  name: string;
  search: string;
  alerts: string;
  paused: boolean;
  last_alert_at: string | Date | null;
  city_id: number | null;
  city_name: string | null;
  section_id: number | null;
  section_slug: string | null;
  section_names: Record<string, string> | null;
  locale: string;
  email: string;
  user_name: string;
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

const SEARCH = sql`
  select s.id, s.user_id, s.name, s.search, s.alerts, s.paused, s.last_alert_at, s.city_id, c.name as city_name,
         s.section_id, se.slug as section_slug, se.names as section_names, u.locale, u.email, u.name as user_name
    from saved_searches s join users u on u.id = s.user_id
    left join cities c on c.id = s.city_id left join sections se on se.id = s.section_id`;

/** The search's pending ads the listing shows now, oldest match first. */
async function pendingAds(db: Db, s: SearchRow): Promise<number[]> {
  const hits = await rows<{ ad_id: number }>(
    db,
    sql`select h.ad_id from saved_search_hits h where h.search_id = ${s.id} and h.alerted_at is null order by h.matched_at, h.ad_id`,
  );
  const shown: number[] = [];
  for (const { ad_id } of hits) {
    const [ok] = await listingShowsAd(db, ad_id, [{ search: s.search, cityId: s.city_id, sectionId: s.section_id }]);
    if (ok) shown.push(ad_id);
  }
  return shown;
}

/** "Oviedo · Mujeres" in the owner's language; the search's name when it has neither filter. */
function placeOf(s: SearchRow, lng: string): string {
  const section = s.section_id !== null ? (s.section_names?.[lng] ?? s.section_names?.es ?? s.section_slug) : null;
  const place = [s.city_name, section].filter(Boolean).join(' · ');
  return place || `«${s.name}»`;
}

const linkOf = (s: SearchRow, ads: number[]) =>
  savedSearchListingPath(
    {
      search: s.search,
      city: s.city_id !== null ? { id: s.city_id } : null,
      section: s.section_slug ? { slug: s.section_slug } : null,
    },
    // Newest first, as the listing orders them.
    [...ads].reverse(),
  );

/** Marks the ads announced and stores the notification, in `tx`. */
async function announce(app: FastifyInstance, tx: Db, s: SearchRow, ads: number[], now: Date, push: boolean): Promise<PendingNotification> {
  const lng = toLanguage(s.locale) ?? 'es';
  // Every pending hit is settled: those the listing no longer shows are not announced later either.
  await tx.execute(sql`update saved_search_hits set alerted_at = ${now.toISOString()}::timestamptz
                        where search_id = ${s.id} and alerted_at is null`);
  await tx.execute(sql`update saved_searches set last_alert_at = ${now.toISOString()}::timestamptz where id = ${s.id}`);
  return storeNotification(app, tx, s.user_id, {
    kind: 'saved_search',
    type: 'info',
    vars: { count: ads.length, name: s.name, place: placeOf(s, lng) },
    data: { link: linkOf(s, ads), subject_type: 'saved_search', subject_id: s.id },
    push,
  });
}

/** The instant alert job of one search. */
export async function sendInstantAlert(app: FastifyInstance, searchId: number, now = new Date()): Promise<JobOutcome> {
  const [s] = await rows<SearchRow>(app.db, sql`${SEARCH} where s.id = ${searchId}`);
  if (!s || s.paused || s.alerts !== 'instant') return;
  if (s.last_alert_at) {
    const due = new Date(new Date(s.last_alert_at).getTime() + ALERT_INTERVAL_MS);
    if (due > now) return { retryAt: due };
  }
  const ads = await pendingAds(app.db, s);
  const pending = await app.db.transaction(async (tx) => (ads.length ? announce(app, tx, s, ads, now, true) : null));
  await pending?.publish();
}

/**
 * RFC 8058 one-click unsubscribe for mail clients ("Unsubscribe" next to the sender): a signed POST URL that turns off
 * the alerts of every search this e-mail names (for one search, the same token as its own link in the body).
 */
function oneClickHeaders(app: FastifyInstance, ids: number[]): Record<string, string> {
  const sorted = [...ids].sort((a, b) => a - b);
  const query = new URLSearchParams({ id: sorted.join(','), token: unsubscribeToken(app.config.appKey, sorted) });
  return {
    'List-Unsubscribe': `<${app.config.appUrl}${API.savedSearchOneClick}?${query.toString().replaceAll('%2C', ',')}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const escape = (v: string) => v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The daily digest job of one user: one e-mail for all their daily searches with new ads. */
export async function sendDigest(app: FastifyInstance, userId: number, now = new Date()): Promise<JobOutcome> {
  const searches = await rows<SearchRow>(
    app.db,
    sql`${SEARCH} where s.user_id = ${userId} and s.alerts = 'daily' and not s.paused order by s.created_at, s.id`,
  );
  if (!searches.length) return;
  const last = Math.max(...searches.map((s) => (s.last_alert_at ? new Date(s.last_alert_at).getTime() : 0)));
  if (last && last + ALERT_INTERVAL_MS > now.getTime()) return { retryAt: new Date(last + ALERT_INTERVAL_MS) };
  const found: { s: SearchRow; ads: number[] }[] = [];
  for (const s of searches) {
    const ads = await pendingAds(app.db, s);
    if (ads.length) found.push({ s, ads });
  }
  if (!found.length) return;
  const first = found[0]!.s;
  const lng = toLanguage(first.locale) ?? 'es';
  const t = app.tFor(lng);
  const base = `${app.config.appUrl}/${lng}`;
  const items = found.map(({ s, ads }) => ({
    title: t('savedSearches.mail.item', { count: ads.length, name: s.name, place: placeOf(s, lng) }),
    open: `${base}${linkOf(s, ads)}`,
    unsubscribe: `${base}${savedSearchUnsubscribePath(s.id, unsubscribeToken(app.config.appKey, s.id))}`,
  }));
  const greeting = t('mail.greeting', { name: first.user_name });
  const intro = t('savedSearches.mail.intro');
  const text = [
    greeting,
    '',
    intro,
    '',
    ...items.flatMap((i) => [
      i.title,
      `${t('savedSearches.mail.open')}: ${i.open}`,
      `${t('savedSearches.mail.unsubscribe')}: ${i.unsubscribe}`,
      '',
    ]),
    '—',
    t('savedSearches.mail.footer'),
  ].join('\n');
  const html = `<!doctype html><html lang="${escape(lng)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e;max-width:560px;margin:auto;padding:16px">
<p>${escape(greeting)}</p><p>${escape(intro)}</p>
${items
  .map(
    (i) =>
      `<p><strong>${escape(i.title)}</strong><br><a href="${escape(i.open)}">${escape(t('savedSearches.mail.open'))}</a> · <a href="${escape(i.unsubscribe)}" style="color:#555">${escape(t('savedSearches.mail.unsubscribe'))}</a></p>`,
  )
  .join('\n')}
<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#555">${escape(t('savedSearches.mail.footer'))}</p></body></html>`;
  const published = await app.db.transaction(async (tx) => {
    const pending: PendingNotification[] = [];
    for (const { s, ads } of found) pending.push(await announce(app, tx, s, ads, now, false));
    await queueMail(tx, {
      to: first.email,
      subject: t('savedSearches.mail.subject', { count: found.reduce((n, f) => n + f.ads.length, 0) }),
      text,
      html,
      headers: oneClickHeaders(
        app,
        found.map(({ s }) => s.id),
      ),
    });
    return pending;
  });
  for (const p of published) await p.publish();
}
