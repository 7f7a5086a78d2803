/**
 * The work behind profiles.routes.ts: the profiles created right after e-mail verification — the model's minimal one
 * (display name; the full profile with its ad is modules/model-profiles) and the publicist's, with the trader details
 * of EU DSA art. 30 — and the publicist's updates of those details with `version` (409 with the current record when
 * stale; staff changes audited in the same transaction). Publicists start `pending`: staff approve them.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { PublicistProfile, PublicistProfileValues } from '#contract/publicists.ts';
import type { Db } from '../../db/client.ts';
import { modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertNoForbiddenWords } from '../forbidden-words/assert-no-forbidden-words.ts';
import { isStaff } from '../media/ad-access.ts';
import { publicistById, publicistOfUser, toPublicistProfile } from '../publicists/publicists.repository.ts';

function publicistValues(input: PublicistProfileValues) {
  return {
    displayName: input.display_name,
    legalName: input.legal_name,
    taxId: input.tax_id,
    address: input.address,
    phone: input.phone,
    phoneCountry: input.phone_country,
    email: input.email,
  };
}

/** The model's minimal profile (unverified); 409 `profiles.exists` for a second one. Answers its id. */
export async function createModelProfile(db: Db, user: SessionUser, displayName: string): Promise<{ id: number }> {
  if (user.role !== 'model') throw forbidden();
  const [created] = await db
    .insert(modelProfiles)
    .values({ userId: user.id, displayName, status: 'unverified' })
    .onConflictDoNothing()
    .returning({ id: modelProfiles.id });
  if (!created) throw conflict(undefined, 'profiles.exists');
  return created;
}

/** The publicist's profile, `pending` until staff approve it; 409 `profiles.exists` for a second one. Answers its id. */
export async function createPublicistProfile(
  req: FastifyRequest,
  user: SessionUser,
  input: PublicistProfileValues,
): Promise<{ id: number }> {
  if (user.role !== 'publicist') throw forbidden();
  assertNoForbiddenWords(req, { display_name: input.display_name, legal_name: input.legal_name });
  const [created] = await req.server.db
    .insert(publicistProfiles)
    .values({ userId: user.id, ...publicistValues(input), status: 'pending' })
    .onConflictDoNothing()
    .returning({ id: publicistProfiles.id });
  if (!created) throw conflict(undefined, 'profiles.exists');
  return created;
}

/** The signed-in publicist's profile (404 before they made one). */
export async function ownPublicistProfile(db: Db, user: SessionUser): Promise<PublicistProfile> {
  if (user.role !== 'publicist') throw forbidden();
  const profile = await publicistOfUser(db, user.id);
  if (!profile) throw notFound();
  return toPublicistProfile(db, profile);
}

/** New trader details over the version they were based on (the publicist's own, or staff). Answers the profile. */
export async function updatePublicistProfile(
  req: FastifyRequest,
  user: SessionUser,
  profileId: number,
  input: PublicistProfileValues & { version: number },
): Promise<PublicistProfile> {
  const db = req.server.db;
  const staff = isStaff(user);
  const profile = await publicistById(db, profileId);
  if (!profile) throw notFound();
  if (!staff && profile.userId !== user.id) throw forbidden();
  if (profile.version !== input.version) throw conflict({ current: await toPublicistProfile(db, profile) });
  assertNoForbiddenWords(req, { display_name: input.display_name, legal_name: input.legal_name });
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publicistProfiles)
      .set({ ...publicistValues(input), version: profile.version + 1, updatedAt: new Date() })
      // The version in the WHERE makes the check and the write one step: two saves racing cannot both win.
      .where(and(eq(publicistProfiles.id, profile.id), eq(publicistProfiles.version, input.version)))
      .returning({ id: publicistProfiles.id });
    if (!updated) throw conflict();
    if (staff) {
      await recordAudit(tx, {
        actor: user,
        action: 'publicist_profile.update',
        subjectType: 'publicist_profile',
        subjectId: profile.id,
        before: await toPublicistProfile(tx, profile),
        after: { ...input },
        req,
      });
    }
  });
  return toPublicistProfile(db, (await publicistById(db, profile.id))!);
}
