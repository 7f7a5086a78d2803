/**
 * Crash leftovers in media storage. An upload stores its files first and records the row after (so a photo is never
 * listed without its files); a process killed in between (kill -9, power loss) leaves files no row points to: a photo
 * folder `ads/{adId}/{uid}/` without its media row, a verification selfie without its request, a readiness probe
 * (`.ready/…`, written and removed by every GET /api/ready) or, on disk, a `*.tmp` partial write (storage.put writes
 * to a temporary name, then renames). In an S3 bucket a PutObject is all-or-nothing, so there are no partials there,
 * but the other leftovers are the same and are found the same way (the bucket's LastModified is the file's age).
 * GET /media/* already serves none of them; this sweep, run at start-up (main.ts), removes them.
 *
 * Only files older than the grace period are touched: another process sharing the storage may be between its write
 * and its commit right now, and its files must survive until the row is there. A leftover younger than that waits
 * for the next start.
 */
import { and, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { media, photoReviews, verificationRequests } from '../../db/schema.ts';
import type { Storage } from '../../plugins/storage.ts';

/** Far longer than any write-then-commit takes (seconds), short enough that a restart soon clears a crash's litter. */
export const LEFTOVER_GRACE_MS = 15 * 60 * 1000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A file inside a photo's folder (its variants, or a partial write of one). */
const PHOTO_FILE = new RegExp(`^ads/(\\d{1,10})/(${UUID})/[^/]+$`);
const SELFIE = new RegExp(`^verification/\\d{1,10}/${UUID}\\.webp$`);
/** A file of a refused photo kept for a person's review (modules/photo-reviews): `held/{uid}/{width}.webp`. */
const HELD_FILE = new RegExp(`^held/(${UUID})/[^/]+$`);
/** One query per this many candidates: bounded parameter lists. */
const BATCH = 500;

export interface SweepResult {
  /**
   * Photo folders removed: no media row for their uid on that ad; and kept refused photos (`held/{uid}/`) whose review
   * row is gone (its ad or account deleted) or decided (the decision's own removal did not happen).
   */
  photos: number;
  /** Verification selfies removed: no request points to them. */
  selfies: number;
  /** Partial writes (`*.tmp`) outside the photo folders removed whole, and readiness probes (`.ready/…`). */
  partials: number;
}

export interface SweepOptions {
  /** Files modified after this are left alone (default: LEFTOVER_GRACE_MS ago). */
  olderThan?: Date;
}

interface PhotoFolder {
  uid: string;
  /** Every file in it is older than the grace period. */
  settled: boolean;
}

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) => items.slice(i * BATCH, (i + 1) * BATCH));

export async function sweepMediaLeftovers(db: Db, storage: Storage, opts: SweepOptions = {}): Promise<SweepResult> {
  const cutoff = (opts.olderThan ?? new Date(Date.now() - LEFTOVER_GRACE_MS)).getTime();
  const result: SweepResult = { photos: 0, selfies: 0, partials: 0 };

  // Walk first, remove after: a folder removed under the walk would break it.
  const folders = new Map<string, PhotoFolder>();
  const partials: string[] = [];
  const selfies: string[] = [];
  const held = new Map<string, boolean>();
  for await (const entry of storage.list('')) {
    const settled = entry.modifiedAt.getTime() < cutoff;
    if ((entry.key.endsWith('.tmp') || entry.key.startsWith('.ready/')) && settled) partials.push(entry.key);
    const photo = PHOTO_FILE.exec(entry.key);
    if (photo) {
      // A folder holding only a partial write (killed while writing its first variant) is a photo folder too.
      const prefix = `ads/${photo[1]}/${photo[2]}`;
      const folder = folders.get(prefix) ?? { uid: photo[2]!, settled: true };
      folder.settled &&= settled;
      folders.set(prefix, folder);
    } else if (SELFIE.test(entry.key) && settled) {
      selfies.push(entry.key);
    } else {
      const kept = HELD_FILE.exec(entry.key);
      if (kept) held.set(kept[1]!, (held.get(kept[1]!) ?? true) && settled);
    }
  }

  const removedFolders = new Set<string>();
  const settledFolders = [...folders.entries()].filter(([, f]) => f.settled);
  for (const batch of chunks(settledFolders)) {
    const rows = await db
      .select({ adId: media.adId, uid: media.uid })
      .from(media)
      .where(
        inArray(
          media.uid,
          batch.map(([, f]) => f.uid),
        ),
      );
    // The row must be for this ad: a uid under another ad's folder is not that photo.
    const recorded = new Set(rows.map((r) => `ads/${r.adId}/${r.uid}`));
    for (const [prefix] of batch) {
      if (recorded.has(prefix)) continue;
      await storage.remove(prefix);
      removedFolders.add(prefix);
      result.photos++;
    }
  }
  for (const key of partials) {
    if (removedFolders.has(key.split('/').slice(0, 3).join('/'))) continue;
    await storage.remove(key);
    result.partials++;
  }

  const settledHeld = [...held.entries()].filter(([, settled]) => settled).map(([uid]) => uid);
  for (const batch of chunks(settledHeld)) {
    const rows = await db
      .select({ uid: photoReviews.uid })
      .from(photoReviews)
      .where(and(inArray(photoReviews.uid, batch), inArray(photoReviews.status, ['refused', 'requested'])));
    const waiting = new Set(rows.map((r) => r.uid));
    for (const uid of batch) {
      if (waiting.has(uid)) continue;
      await storage.remove(`held/${uid}`);
      result.photos++;
    }
  }

  for (const batch of chunks(selfies)) {
    const rows = await db
      .select({ key: verificationRequests.photoKey })
      .from(verificationRequests)
      .where(inArray(verificationRequests.photoKey, batch));
    const recorded = new Set(rows.map((r) => r.key));
    for (const key of batch) {
      if (recorded.has(key)) continue;
      await storage.remove(key);
      result.selfies++;
    }
  }
  return result;
}
