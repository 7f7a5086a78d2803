/**
 * Photos stored before hashing existed are hashed by a background job (issue 29), resumable and idempotent: one keyed
 * job row (`media-hashes-backfill`) carries the cursor (the last photo id done); each run hashes the next BATCH photos
 * that have no hash yet, stores them, and schedules the next run from the new cursor. After a restart the scheduled row
 * is still there, so the work goes on where it stopped; a photo hashed twice changes nothing (unique per photo and
 * kind); a photo whose file is gone, or too plain to hash, is skipped (the cursor moves past it). Backfilled photos are not flagged: they were
 * already listed, and flagging them all at once would unlist ads nobody reviewed; their matches show in the staff
 * queue (`matchCounts`) and the matches route.
 */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ads, media, mediaHashes } from '../../db/schema.ts';
import { DEMO_CATALOGUE_PROVIDER } from '../../db/seed/illustrations.ts';
import { readBytes } from '../../plugins/storage.ts';
import { scheduleJob } from '../jobs/jobs.ts';
import { mediaKey } from './images.ts';
import { hashImage, storeHashes } from './photo-hashes.ts';

export const BACKFILL_JOB = 'media-hashes-backfill';
const BATCH = 50;
/** A pause between batches, so the backfill never crowds out the requests. */
const PAUSE_MS = 2_000;

/** Hashes up to `limit` photos after `after` that have none; answers the new cursor and whether more may remain. */
export async function backfillBatch(
  app: FastifyInstance,
  after: number,
  limit = BATCH,
): Promise<{ cursor: number; hashed: number; more: boolean }> {
  const rows = await app.db
    .select({ id: media.id, adId: media.adId, uid: media.uid, variants: media.variants, profileId: ads.modelProfileId })
    .from(media)
    .innerJoin(ads, eq(ads.id, media.adId))
    .leftJoin(mediaHashes, and(eq(mediaHashes.mediaId, media.id), eq(mediaHashes.kind, 'full')))
    .where(
      and(
        gt(media.id, after),
        isNull(mediaHashes.id),
        // The demo catalogue's shared drawings (server/db/seed/demo-catalogue.ts): a known set, never matched.
        sql`coalesce(${media.moderation} ->> 'provider', '') <> ${DEMO_CATALOGUE_PROVIDER}`,
      ),
    )
    .orderBy(asc(media.id))
    .limit(limit);
  let hashed = 0;
  for (const r of rows) {
    const width = Math.min(...r.variants);
    try {
      const bytes = await readBytes(app.storage, mediaKey(r.adId, r.uid, width));
      if (!bytes) continue;
      const hashes = await hashImage(bytes);
      if (!hashes) continue;
      await storeHashes(app.db, { mediaId: r.id }, r.profileId, hashes);
      hashed++;
    } catch (err) {
      // The photo may have been removed meanwhile (its row cascades) or its file be unreadable: skipped, not retried.
      app.log.warn({ err, mediaId: r.id }, 'media hashes: backfilling a photo failed');
    }
  }
  return { cursor: rows.at(-1)?.id ?? after, hashed, more: rows.length === limit };
}

export function registerHashBackfill(app: FastifyInstance): void {
  app.jobs.register(BACKFILL_JOB, async (payload) => {
    const after = Number(payload.after ?? 0) || 0;
    const { cursor, more } = await backfillBatch(app, after);
    if (more)
      await scheduleJob(app.db, {
        name: BACKFILL_JOB,
        key: BACKFILL_JOB,
        payload: { after: cursor },
        runAt: new Date(Date.now() + PAUSE_MS),
        onConflict: 'replace',
      });
  });
  // Started with each process; a run already scheduled (a backfill under way before a restart) is kept, cursor and all.
  // Not where the runner does not poll (server tests run due jobs by hand, and a backfill no test asked for would be
  // one of them; its own tests call backfillBatch).
  app.addHook('onReady', async () => {
    if (app.config.jobsPollMs === 0) return;
    await scheduleJob(app.db, { name: BACKFILL_JOB, key: BACKFILL_JOB, payload: { after: 0 } }).catch((err: unknown) =>
      app.log.warn({ err }, 'media hashes: scheduling the backfill failed'),
    );
  });
}
