/**
 * Stolen and reused photos caught at upload (issue 29). Every stored photo and verification selfie keeps two
 * perceptual hashes (perceptual-hash.ts): `full` and `centre` (the middle 90 %). An upload is looked up with four keys
 * — its full and centre hashes, each also mirrored — against every stored hash and the removed list:
 *
 * - Multi-index lookup: each 64-bit hash is four 16-bit chunks (generated columns c0…c3, one btree each). Two hashes
 *   within MATCH_DISTANCE = 7 bits differ by at most 1 bit in at least one chunk (pigeonhole: 4 chunks × 2 bits > 7),
 *   so the candidates are the rows whose chunk i is one of the 17 values within 1 bit of a key's chunk i; their exact
 *   distance (`bit_count` of the XOR) is checked in the same query. Measured in bench/lib/media-hash-matching.ts.
 * - Same account never matches: a hash of the same model profile, of another profile of the same user, or of a model
 *   the same publicist manages is left out (a publicist's models are one account for this rule).
 * - A match with another account flags the photo (`media_hashes.flagged`): the upload answers as any other (no
 *   tipping off), and the ad is not listed while the photo waits for a person (ads_before_write, migration 0022).
 * - A match with the removed list also flags it, and an automated statement of reasons is issued at once (DSA art.
 *   17(3)(c)): the photo is withheld because an automated comparison found it among photos removed before; the
 *   user may appeal it, and a person decides.
 */
import { and, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { STATEMENT_GROUNDS, type StatementGround } from '#contract/statements.ts';
import type { MediaMatch } from '#contract/media-matches.ts';
import { API } from '#contract/routes.ts';
import type { Db } from '../../db/client.ts';
import { ads, cities, media, mediaHashes, modelProfiles, publicistProfiles, removedMediaHashes, users } from '../../db/schema.ts';
import type { Storage } from '../../plugins/storage.ts';
import { mediaKey } from './images.ts';
import { issueStatement, recipientFor } from '../statements/statements.ts';
import { chunkNeighbours, chunksOf, hashPhoto } from './perceptual-hash.ts';
import sharp from 'sharp';

/** The largest Hamming distance (of 64 bits) counted as the same picture: chosen from the benchmark's measurements. */
export const MATCH_DISTANCE = 7;
/** Bits a candidate's chunk may differ by (pigeonhole over 4 chunks: floor(MATCH_DISTANCE / 4)). */
const CHUNK_RADIUS = Math.floor(MATCH_DISTANCE / 4);
/** The grounds whose removal puts a photo's hashes on the removed list: stolen (someone else's identity) or illegal. */
export const REMOVAL_GROUNDS: readonly StatementGround[] = ['illegal_content', 'identity', 'minor', 'coercion'];
/** Matches the route answers at most (closest first). */
const MATCHES_SHOWN = 50;

/** What is stored for an image (two hashes) and what it is looked up with (four keys). */
export interface ImageHashes {
  full: bigint;
  fullMirror: bigint;
  centre: bigint;
  centreMirror: bigint;
  /** full, centre and both mirrored: the lookup keys. */
  keys: bigint[];
}

/** The middle 90 % of the picture (5 % off each side), as raw pixels for the hasher. */
async function centreOf(image: Buffer): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const dx = Math.round(w * 0.05);
  const dy = Math.round(h * 0.05);
  if (w - 2 * dx < 8 || h - 2 * dy < 8) return image;
  return sharp(image)
    .extract({ left: dx, top: dy, width: w - 2 * dx, height: h - 2 * dy })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * Below this spread of grey levels (standard deviation, 0…255, on a 32 × 32 thumbnail) a picture is too plain for its
 * hash to mean anything: all flat pictures share one hash. Such pictures are neither stored nor matched.
 */
const MIN_DETAIL = 3;

/** Whether the picture has enough detail to be told apart by its hash. */
export async function hasDetail(image: Buffer): Promise<boolean> {
  const stats = await sharp(image).greyscale().resize(32, 32, { fit: 'fill' }).stats();
  return (stats.channels[0]?.stdev ?? 0) >= MIN_DETAIL;
}

/** Hashes an encoded image (the stored copy: re-encoded, metadata-free); null for a picture too plain to hash. */
export async function hashImage(image: Buffer): Promise<ImageHashes | null> {
  if (!(await hasDetail(image))) return null;
  const [full, centre] = await Promise.all([hashPhoto(image), centreOf(image).then(hashPhoto)]);
  return {
    full: full.hash,
    fullMirror: full.mirrored,
    centre: centre.hash,
    centreMirror: centre.mirrored,
    keys: [full.hash, full.mirrored, centre.hash, centre.mirrored],
  };
}

/** The account side of an image: its model profile, that profile's own user and its agency. */
export interface AccountSide {
  modelProfileId: number;
  userId: number | null;
  publicistId: number | null;
}

export async function accountSideOf(db: Db, modelProfileId: number): Promise<AccountSide> {
  const [p] = await db
    .select({ userId: modelProfiles.userId, publicistId: modelProfiles.publicistId })
    .from(modelProfiles)
    .where(eq(modelProfiles.id, modelProfileId));
  return { modelProfileId, userId: p?.userId ?? null, publicistId: p?.publicistId ?? null };
}

const key = (v: bigint) => sql`${v.toString()}::bigint`;

/** `c0 = ANY(…) OR … OR c3 = ANY(…)` for the keys, and the least distance to any key, for table `t`. */
function lookup(t: typeof mediaHashes | typeof removedMediaHashes, keys: bigint[]): { where: SQL; distance: SQL<number> } {
  const values: Set<number>[] = [new Set(), new Set(), new Set(), new Set()];
  for (const k of keys) chunksOf(k).forEach((c, i) => chunkNeighbours(c, CHUNK_RADIUS).forEach((v) => values[i]!.add(v)));
  const cols = [t.c0, t.c1, t.c2, t.c3];
  const arr = (s: Set<number>) => sql`${`{${[...s].join(',')}}`}::int[]`;
  const where = sql`(${sql.join(
    cols.map((c, i) => sql`${c} = ANY(${arr(values[i]!)})`),
    sql` OR `,
  )})`;
  const distance = sql<number>`least(${sql.join(
    keys.map((k) => sql`bit_count((${t.hash} # ${key(k)})::bit(64))`),
    sql`, `,
  )})::int`;
  return { where, distance };
}

export interface FoundMatch {
  mediaId: number | null;
  verificationId: number | null;
  modelProfileId: number | null;
  distance: number;
  removed: boolean;
  ground: string | null;
}

/**
 * Every stored image of another account and every removed-list entry within MATCH_DISTANCE of `keys`, closest first
 * (one line per image: the closer of its two hashes).
 */
export async function findMatches(db: Db, keys: bigint[], side: AccountSide, limit = MATCHES_SHOWN): Promise<FoundMatch[]> {
  const own = lookup(mediaHashes, keys);
  const sameAccount = or(
    eq(modelProfiles.id, side.modelProfileId),
    side.userId === null ? sql`false` : eq(modelProfiles.userId, side.userId),
    side.publicistId === null ? sql`false` : eq(modelProfiles.publicistId, side.publicistId),
  )!;
  const rows = await db
    .select({
      mediaId: mediaHashes.mediaId,
      verificationId: mediaHashes.verificationId,
      modelProfileId: mediaHashes.modelProfileId,
      distance: sql<number>`min(${own.distance})::int`,
    })
    .from(mediaHashes)
    .innerJoin(modelProfiles, eq(modelProfiles.id, mediaHashes.modelProfileId))
    .where(and(own.where, sql`${own.distance} <= ${MATCH_DISTANCE}`, sql`NOT coalesce(${sameAccount}, false)`))
    .groupBy(mediaHashes.mediaId, mediaHashes.verificationId, mediaHashes.modelProfileId)
    .orderBy(sql`4`)
    .limit(limit);
  const gone = lookup(removedMediaHashes, keys);
  const removed = await db
    .select({ ground: removedMediaHashes.ground, distance: sql<number>`min(${gone.distance})::int` })
    .from(removedMediaHashes)
    .where(and(gone.where, sql`${gone.distance} <= ${MATCH_DISTANCE}`))
    .groupBy(removedMediaHashes.ground)
    .orderBy(sql`2`)
    .limit(limit);
  return [
    ...rows.map((r) => ({ ...r, distance: Number(r.distance), removed: false, ground: null })),
    ...removed.map((r) => ({
      mediaId: null,
      verificationId: null,
      modelProfileId: null,
      distance: Number(r.distance),
      removed: true,
      ground: r.ground,
    })),
  ].sort((a, b) => a.distance - b.distance || Number(b.removed) - Number(a.removed));
}

/** What the upload found for one photo: whether it is flagged, and the removed list's closest entry if any. */
export interface UploadScreening {
  hashes: ImageHashes;
  matches: FoundMatch[];
  flagged: boolean;
  removed: FoundMatch | null;
}

/**
 * Hashes a received photo and looks it up; null when the picture is too plain to hash or hashing failed (the upload
 * goes on: a person reviews every photo anyway).
 */
export async function screenUpload(app: FastifyInstance, image: Buffer, side: AccountSide): Promise<UploadScreening | null> {
  try {
    const hashes = await hashImage(image);
    if (!hashes) return null;
    const matches = await findMatches(app.db, hashes.keys, side);
    return { hashes, matches, flagged: matches.length > 0, removed: matches.find((m) => m.removed) ?? null };
  } catch (err) {
    app.log.error({ err }, 'media hashes: hashing or matching an upload failed');
    return null;
  }
}

/** Stores an image's two hashes (idempotent: a second call for the same image changes nothing). */
export async function storeHashes(
  tx: Db,
  subject: { mediaId: number } | { verificationId: number },
  modelProfileId: number,
  hashes: Omit<ImageHashes, 'keys'>,
  flagged = false,
): Promise<void> {
  const ids = 'mediaId' in subject ? { mediaId: subject.mediaId } : { verificationId: subject.verificationId };
  await tx
    .insert(mediaHashes)
    .values([
      { ...ids, modelProfileId, kind: 'full', hash: hashes.full, mirror: hashes.fullMirror, flagged },
      { ...ids, modelProfileId, kind: 'centre', hash: hashes.centre, mirror: hashes.centreMirror, flagged },
    ])
    .onConflictDoNothing();
}

/**
 * Inside the upload's transaction, once the photo's row exists: stores its hashes (flagged or not) and, for a match
 * with the removed list, issues the automated statement of reasons (its mail is queued in the same transaction).
 */
export async function recordUploadHashes(
  tx: Db,
  app: FastifyInstance,
  photo: { id: number; modelProfileId: number },
  screening: UploadScreening,
): Promise<void> {
  await storeHashes(tx, { mediaId: photo.id }, photo.modelProfileId, screening.hashes, screening.flagged);
  if (!screening.removed) return;
  const recipient = await recipientFor(tx, 'media', photo.id);
  const tr = app.tFor(recipient?.locale ?? 'es');
  const ground = (STATEMENT_GROUNDS as readonly string[]).includes(screening.removed.ground ?? '')
    ? (screening.removed.ground as StatementGround)
    : 'other';
  await issueStatement(tx, app, {
    subjectType: 'media',
    subjectId: photo.id,
    decision: 'rejected',
    reasonCodes: [ground],
    ground,
    facts: tr('mediaMatches.statementFacts', { ground: tr(`statements.grounds.${ground}`) }),
    automated: true,
    automatedDetail: {
      hash_match: {
        method: 'perceptual hash (DCT pHash, 64 bits; full picture, centre and mirror image)',
        list: 'removed',
        distance: screening.removed.distance,
        threshold: MATCH_DISTANCE,
      },
    },
    decidedBy: null,
    recipient,
  });
}

/** A verification selfie: hashed and stored like a photo (a photo later matching it is another account's selfie). */
export async function recordSelfieHashes(
  app: FastifyInstance,
  image: Buffer,
  verificationId: number,
  modelProfileId: number,
): Promise<void> {
  try {
    const hashes = await hashImage(image);
    if (!hashes) return;
    const matches = await findMatches(app.db, hashes.keys, await accountSideOf(app.db, modelProfileId));
    await storeHashes(app.db, { verificationId }, modelProfileId, hashes, matches.length > 0);
  } catch (err) {
    app.log.error({ err, verificationId }, 'media hashes: hashing a selfie failed');
  }
}

/** The number of matches (other accounts and the removed list) of each photo, for the staff photo queue. */
export async function matchCounts(db: Db, mediaIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(mediaIds.map((id) => [id, 0]));
  if (!mediaIds.length) return out;
  const rows = await db
    .select({
      mediaId: mediaHashes.mediaId,
      hash: mediaHashes.hash,
      mirror: mediaHashes.mirror,
      profileId: modelProfiles.id,
      userId: modelProfiles.userId,
      publicistId: modelProfiles.publicistId,
    })
    .from(mediaHashes)
    .innerJoin(modelProfiles, eq(modelProfiles.id, mediaHashes.modelProfileId))
    .where(and(inArray(mediaHashes.mediaId, mediaIds), isNotNull(mediaHashes.mediaId)));
  const byMedia = new Map<number, { keys: bigint[]; side: AccountSide }>();
  for (const r of rows) {
    const entry = byMedia.get(r.mediaId!) ?? {
      keys: [],
      side: { modelProfileId: r.profileId, userId: r.userId, publicistId: r.publicistId },
    };
    entry.keys.push(BigInt(r.hash), BigInt(r.mirror));
    byMedia.set(r.mediaId!, entry);
  }
  for (const [id, { keys, side }] of byMedia) out.set(id, (await findMatches(db, keys, side, 1000)).length);
  return out;
}

/** The matches of photo `mediaId` with what the reviewer needs beside each; null for an unknown photo. */
export async function mediaMatches(db: Db, storage: Storage, mediaId: number): Promise<MediaMatch[] | null> {
  const [photo] = await db
    .select({ id: media.id, profileId: ads.modelProfileId })
    .from(media)
    .innerJoin(ads, eq(ads.id, media.adId))
    .where(eq(media.id, mediaId));
  if (!photo) return null;
  const keys = (
    await db.select({ hash: mediaHashes.hash, mirror: mediaHashes.mirror }).from(mediaHashes).where(eq(mediaHashes.mediaId, mediaId))
  ).flatMap((r) => [BigInt(r.hash), BigInt(r.mirror)]);
  if (!keys.length) return [];
  return describeMatches(db, storage, await findMatches(db, keys, await accountSideOf(db, photo.profileId)));
}

/**
 * The matches of each verification selfie (other accounts' photos and selfies, the removed list), described as a
 * photo's are, for the staff verification queue; a selfie without hashes (too plain, or sent before hashing) has none.
 */
export async function verificationMatches(db: Db, storage: Storage, verificationIds: number[]): Promise<Map<number, MediaMatch[]>> {
  const out = new Map<number, MediaMatch[]>(verificationIds.map((id) => [id, []]));
  if (!verificationIds.length) return out;
  const rows = await db
    .select({ id: mediaHashes.verificationId, profileId: mediaHashes.modelProfileId, hash: mediaHashes.hash, mirror: mediaHashes.mirror })
    .from(mediaHashes)
    .where(inArray(mediaHashes.verificationId, verificationIds));
  const byRequest = new Map<number, { profileId: number; keys: bigint[] }>();
  for (const r of rows) {
    const entry = byRequest.get(r.id!) ?? { profileId: r.profileId, keys: [] };
    entry.keys.push(BigInt(r.hash), BigInt(r.mirror));
    byRequest.set(r.id!, entry);
  }
  for (const [id, { profileId, keys }] of byRequest)
    out.set(id, await describeMatches(db, storage, await findMatches(db, keys, await accountSideOf(db, profileId))));
  return out;
}

/** Found matches with what the reviewer needs beside each: the other photo or selfie, its account, phone and city. */
async function describeMatches(db: Db, storage: Storage, found: FoundMatch[]): Promise<MediaMatch[]> {
  const ids = found.flatMap((f) => (f.mediaId === null ? [] : [f.mediaId]));
  const profileIds = found.flatMap((f) => (f.mediaId === null && f.modelProfileId !== null ? [f.modelProfileId] : []));
  const photos = ids.length
    ? await db
        .select({
          id: media.id,
          adId: media.adId,
          uid: media.uid,
          variants: media.variants,
          userId: sql<number | null>`coalesce(${modelProfiles.userId}, ${publicistProfiles.userId})`,
          name: modelProfiles.displayName,
          account: users.name,
          phone: modelProfiles.phone,
          city: cities.name,
        })
        .from(media)
        .innerJoin(ads, eq(ads.id, media.adId))
        .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
        .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
        .leftJoin(users, sql`${users.id} = coalesce(${modelProfiles.userId}, ${publicistProfiles.userId})`)
        .leftJoin(cities, eq(cities.id, ads.cityId))
        .where(inArray(media.id, ids))
    : [];
  const profiles = profileIds.length
    ? await db
        .select({
          id: modelProfiles.id,
          userId: sql<number | null>`coalesce(${modelProfiles.userId}, ${publicistProfiles.userId})`,
          name: modelProfiles.displayName,
          phone: modelProfiles.phone,
        })
        .from(modelProfiles)
        .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
        .where(inArray(modelProfiles.id, profileIds))
    : [];
  const photoById = new Map(photos.map((p) => [p.id, p]));
  const profileById = new Map(profiles.map((p) => [p.id, p]));
  return found.map((f): MediaMatch => {
    if (f.removed) return { media_id: null, ad_id: null, user_id: null, distance: f.distance, removed: true, ground: f.ground };
    const p = f.mediaId === null ? undefined : photoById.get(f.mediaId);
    if (p) {
      const width = [...p.variants].sort((a, b) => a - b).find((w) => w >= 800) ?? p.variants.at(-1) ?? 0;
      return {
        media_id: p.id,
        ad_id: p.adId,
        user_id: p.userId === null ? null : Number(p.userId),
        distance: f.distance,
        removed: false,
        // Served to staff only while the other ad is not listed (GET /media/*: private, no-store).
        image_url: storage.url(mediaKey(p.adId, p.uid, width)),
        account_name: p.account ?? p.name,
        phone: p.phone ?? null,
        city: p.city ?? null,
        ground: null,
      };
    }
    // A verification selfie of another account: its image through the staff-only selfie route (private storage).
    const prof = f.modelProfileId === null ? undefined : profileById.get(f.modelProfileId);
    return {
      media_id: null,
      ad_id: null,
      user_id: prof?.userId === null || prof?.userId === undefined ? null : Number(prof.userId),
      verification_id: f.verificationId,
      distance: f.distance,
      removed: false,
      image_url: f.verificationId === null ? null : API.adminVerificationSelfie(f.verificationId),
      account_name: prof?.name ?? null,
      phone: prof?.phone ?? null,
      city: null,
      ground: null,
    };
  });
}

/**
 * Removed stays removed: inside a staff decision's transaction, before the photos go, the hashes of photo `mediaId`
 * or of every photo of ad `adId` join the removed list with the decision's ground — when a reason is stolen or
 * illegal content. Only hashes and the ground are kept (no image, no user, no photo id).
 */
export async function listRemovedHashes(
  tx: Db,
  subject: { subjectType: string; subjectId: number; action: string; reasonCodes: readonly string[] },
): Promise<number> {
  if (!['remove', 'reject', 'suspend'].includes(subject.action)) return 0;
  const ground = subject.reasonCodes.find((c) => (REMOVAL_GROUNDS as readonly string[]).includes(c));
  if (!ground) return 0;
  let where: SQL;
  if (subject.subjectType === 'media') where = eq(mediaHashes.mediaId, subject.subjectId);
  else if (subject.subjectType === 'ad')
    where = sql`${mediaHashes.mediaId} IN (SELECT ${media.id} FROM ${media} WHERE ${media.adId} = ${subject.subjectId})`;
  else return 0;
  const rows = await tx.select({ kind: mediaHashes.kind, hash: mediaHashes.hash }).from(mediaHashes).where(where);
  if (!rows.length) return 0;
  // The stored hash only: an upload is looked up with its mirror image's hash too, so a mirrored copy is still found.
  await tx
    .insert(removedMediaHashes)
    .values(rows.map((r) => ({ kind: r.kind, hash: BigInt(r.hash), ground })))
    .onConflictDoNothing();
  return rows.length;
}

/**
 * An appeal reversed against the automated removed-list refusal of photo `mediaId` (inside the appeal's transaction):
 * the person deciding has looked at the photo and kept it, so it counts as reviewed (the ad may be listed again:
 * `media_after_review` re-derives it), its hashes are no longer flagged, and the removed-list entries it matched are
 * taken off the list — otherwise the same picture, uploaded again by its owner, would be refused again for the match
 * staff have just found wrong. The photo's own stored hashes still catch another account's copy. False when the
 * photo is gone (removed meanwhile): nothing to accept.
 */
export async function acceptAfterAppeal(tx: Db, mediaId: number, staffId: number): Promise<{ unlisted: number } | null> {
  const [photo] = await tx
    .update(media)
    .set({ reviewedAt: sql`coalesce(${media.reviewedAt}, now())`, reviewedBy: sql`coalesce(${media.reviewedBy}, ${staffId})` })
    .where(eq(media.id, mediaId))
    .returning({ id: media.id });
  if (!photo) return null;
  const rows = await tx
    .update(mediaHashes)
    .set({ flagged: false })
    .where(eq(mediaHashes.mediaId, mediaId))
    .returning({ hash: mediaHashes.hash, mirror: mediaHashes.mirror });
  const keys = rows.flatMap((r) => [BigInt(r.hash), BigInt(r.mirror)]);
  if (!keys.length) return { unlisted: 0 };
  const gone = lookup(removedMediaHashes, keys);
  const unlisted = await tx
    .delete(removedMediaHashes)
    .where(and(gone.where, sql`${gone.distance} <= ${MATCH_DISTANCE}`))
    .returning({ id: removedMediaHashes.id });
  return { unlisted: unlisted.length };
}

/** Whether a statement is the automated removed-list refusal of a photo (recordUploadHashes issues it). */
export function isRemovedListStatement(statement: { subjectType: string; automated: boolean; automatedDetail: unknown }): boolean {
  if (statement.subjectType !== 'media' || !statement.automated) return false;
  const detail = statement.automatedDetail as { hash_match?: { list?: unknown } } | null;
  return detail?.hash_match?.list === 'removed';
}
