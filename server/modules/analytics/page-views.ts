/**
 * The page-view counter behind analytics.routes.ts: the path, the language and the referrer's host only (never the
 * full referrer, which can carry a search or a token, nor the IP or a user id).
 */
import type { PageView } from '#contract/analytics.ts';
import type { Db } from '../../db/client.ts';
import { pageViews } from '../../db/schema.ts';

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host.slice(0, 255) || null;
  } catch {
    return null;
  }
}

export async function recordPageView(db: Db, view: PageView, language: string): Promise<void> {
  await db.insert(pageViews).values({ path: view.path, language, referrerHost: hostOf(view.referrer) });
}
