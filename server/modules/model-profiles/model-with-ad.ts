/**
 * A model with their ad, one concept whoever edits it: the model's own profile (model-profiles.ts) and a model under a
 * publicist's responsibility (publicists/publicist-models.ts) are checked, created and updated here. The callers decide
 * only what differs: who may edit the row (they load it), how the editor sees it (`view`, `formValues`) and, for a
 * publicist's model, consent. The rules that are the same for both live once:
 * - place (city in province in country) and forbidden words are checked before anything is written;
 * - an update carries the version it was based on: a stale one answers 409 with the current record and the form's
 *   values, and the version in the UPDATE's WHERE makes two racing saves unable to both win;
 * - edited ad text goes back to review (staff see new and edited ads in one queue); staff edits do not;
 * - what staff change on someone else's record is audited, in the same transaction, and only what changed;
 * - a publicist's model whose contact e-mail changes is asked for consent again (a new person may be behind it).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { SectionSlug } from '#contract/section-slugs.ts';
import type { Db } from '../../db/client.ts';
import { ads, modelProfiles } from '../../db/schema.ts';
import { conflict, validationFailed } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { changedFields, recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { assertNoForbiddenWords, type TextFields } from '../forbidden-words/assert-no-forbidden-words.ts';
import { isStaff } from '../media/ad-access.ts';
import { firstAdOf, placeIsConsistent, sectionIdOf, type AdRow, type ProfileRow } from './model-profiles.repository.ts';

/** The fields a model with their ad shares, whoever edits it, as the answers show them. */
export interface ModelWithAdRecord {
  display_name: string;
  birth_date: string | null;
  phone_country: string | null;
  phone: string | null;
  whatsapp: unknown;
  country_id: number | null;
  ad?: { state_id: number; city_id: number; section: string; title: string; description: string } | null;
}

/**
 * What the form shows and edits, from the stored record: the conflict view compares it with what the user typed.
 * A publicist's model adds its contact e-mail.
 */
export function modelWithAdFormValues(r: ModelWithAdRecord) {
  return {
    display_name: r.display_name,
    birth_date: r.birth_date,
    phone_country: r.phone_country,
    phone: r.phone,
    whatsapp: r.whatsapp,
    country_id: r.country_id,
    state_id: r.ad?.state_id,
    city_id: r.ad?.city_id,
    section: r.ad?.section,
    title: r.ad?.title,
    description: r.ad?.description,
  };
}

/** Where an ad is shown, and what it says. */
export interface AdValues {
  country_id: number;
  state_id: number;
  city_id: number;
  section: SectionSlug;
  title: string;
  description: string;
}

/** A model with their ad as both forms send it (the publicist's adds the model's contact e-mail). */
export interface ModelWithAdValues extends AdValues {
  display_name: string;
  birth_date: string;
  phone_country: string | null;
  phone: string | null;
  whatsapp: boolean;
  contact_email?: string | null;
}

/**
 * Place and forbidden words of every model (or ad) in the request, before anything is written. Field errors are named
 * with `prefix` (e.g. `models.2.` in a bulk create); all misplaced cities are named at once, then all flagged words.
 */
export async function checkModelsWithAds(
  req: FastifyRequest,
  inputs: (AdValues & { display_name?: string })[],
  prefix: (i: number) => string = () => '',
): Promise<void> {
  const placeErrors: Record<string, string[]> = {};
  for (const [i, input] of inputs.entries()) {
    if (!(await placeIsConsistent(req.server.db, input.country_id, input.state_id, input.city_id))) {
      placeErrors[`${prefix(i)}city_id`] = [req.t('profiles.validation.location')];
    }
  }
  if (Object.keys(placeErrors).length) throw validationFailed(placeErrors);
  const fields: TextFields = {};
  for (const [i, input] of inputs.entries()) {
    fields[`${prefix(i)}display_name`] = input.display_name;
    fields[`${prefix(i)}title`] = input.title;
    fields[`${prefix(i)}description`] = input.description;
  }
  assertNoForbiddenWords(req, fields);
}

/** The profile's columns from the form (the contact e-mail only where the form has it). */
function profileColumns(input: ModelWithAdValues) {
  return {
    displayName: input.display_name,
    birthDate: input.birth_date,
    phone: input.phone,
    phoneCountry: input.phone_country,
    whatsapp: input.whatsapp,
    countryId: input.country_id,
    ...(input.contact_email !== undefined ? { contactEmail: input.contact_email } : {}),
  };
}

const adColumns = (input: AdValues, sectionId: number) => ({
  title: input.title,
  description: input.description,
  sectionId,
  cityId: input.city_id,
});

/**
 * Inside the caller's transaction: the profile and its first ad. A new ad waits for review (SPEC §4) and for photos;
 * it is switched on so approval publishes it (for a publicist's model, once the model consents and the agency is
 * approved too: the ads trigger checks all of it). 409 `profiles.exists` when the account already has a profile.
 */
export async function insertModelWithAd(
  tx: Db,
  input: ModelWithAdValues,
  sectionId: number,
  owner: Pick<typeof modelProfiles.$inferInsert, 'userId' | 'publicistId' | 'consentStatus'>,
): Promise<ProfileRow> {
  const [profile] = await tx
    .insert(modelProfiles)
    .values({ ...profileColumns(input), ...owner, status: 'unverified' })
    .onConflictDoNothing()
    .returning();
  if (!profile) throw conflict(undefined, 'profiles.exists');
  await tx.insert(ads).values({ modelProfileId: profile.id, ...adColumns(input, sectionId), status: 'pending', isActive: true });
  return profile;
}

/** Whose record is edited and how its editor sees it; the caller has checked that `user` may edit it. */
export interface ModelWithAdEdit<V> {
  user: SessionUser;
  profile: ProfileRow;
  /**
   * A publicist's model only: a changed contact e-mail asks the model's consent again. `budget` refuses before anything
   * is written (429 past the day's messages); `reopen` opens the request and queues its mail in the save's transaction.
   * (Passed in, not imported: the publicists module builds on this one.)
   */
  consent?: { budget: (db: Db, profileId: number) => Promise<void>; reopen: (tx: Db, updated: ProfileRow) => Promise<unknown> };
  /** The record as the editor's form shows it: the 409's `current`. */
  view: (db: Db, profile: ProfileRow) => Promise<V>;
  /** The form's fields of that view: the 409's `values` (the conflict view compares them) and the audit's `before`. */
  formValues: (view: V) => Record<string, unknown>;
}

/**
 * The review rule: an ad whose text, section or city changed goes back to `pending`, unless staff changed it (their
 * edit is itself a review). Answers the columns to write, or null when nothing of the ad changed.
 */
export function adChange(ad: AdRow, input: AdValues, sectionId: number, editor: Pick<SessionUser, 'role'>) {
  const fields = adColumns(input, sectionId);
  const unchanged =
    ad.title === fields.title && ad.description === fields.description && ad.sectionId === sectionId && ad.cityId === fields.cityId;
  if (unchanged) return null;
  return { ...fields, status: isStaff(editor) ? ad.status : ('pending' as const), version: ad.version + 1, updatedAt: new Date() };
}

/**
 * Saves the form over the record, all in one transaction: the profile (with its version), the ad (the review rule),
 * the audit entry and, for a publicist's model with a new contact e-mail, a new consent request and its mail. `commit`
 * stores the request's idempotent answer in the same transaction (plugins/idempotency.ts answerOnce). Answers the
 * profile's id.
 */
export async function updateModelWithAd<V>(
  req: FastifyRequest,
  edit: ModelWithAdEdit<V>,
  input: ModelWithAdValues & { version: number },
  commit?: (tx: Db, profileId: number) => Promise<void>,
): Promise<number> {
  const db = req.server.db;
  const { user, profile, consent } = edit;
  // Checked before anything else: an edit based on an old copy must not overwrite someone else's newer work.
  if (profile.version !== input.version) {
    const current = await edit.view(db, profile);
    throw conflict({ current, values: edit.formValues(current) });
  }
  await checkModelsWithAds(req, [input]);
  const sectionId = await sectionIdOf(db, input.section);
  const ad = await firstAdOf(db, profile.id);
  // Consent is asked by e-mail only: a new phone number is the ad's, not a new person to ask.
  const contactChanged = !!consent && (profile.contactEmail ?? null) !== (input.contact_email ?? null);
  if (contactChanged) await consent.budget(db, profile.id);
  // Read before the transaction: inside it, a read on `db` would wait for the transaction's own connection (PGlite has
  // one) and never return. The entry compares the form's fields as they were with what staff sent.
  const auditedBefore = staffActsForOthers(user, profile.userId) ? edit.formValues(await edit.view(db, profile)) : null;
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(modelProfiles)
      .set({ ...profileColumns(input), version: profile.version + 1, updatedAt: new Date() })
      // The version in the WHERE makes the check and the write one step: two saves racing cannot both win.
      .where(and(eq(modelProfiles.id, profile.id), eq(modelProfiles.version, input.version)))
      .returning();
    if (!updated) throw conflict();
    if (auditedBefore) {
      const sent = Object.fromEntries(Object.keys(auditedBefore).map((k) => [k, input[k as keyof typeof input]]));
      // A save that changes nothing (only the version moves) is no change to someone's data: nothing to record.
      const change = changedFields(auditedBefore, sent);
      if (change) {
        await recordAudit(tx, {
          actor: user,
          action: 'model_profile.update',
          subjectType: 'model_profile',
          subjectId: profile.id,
          ...change,
          req,
        });
      }
    }
    if (!ad) {
      await tx.insert(ads).values({ modelProfileId: profile.id, ...adColumns(input, sectionId), status: 'pending', isActive: true });
    } else {
      const change = adChange(ad, input, sectionId, user);
      if (change) await tx.update(ads).set(change).where(eq(ads.id, ad.id));
    }
    // A new contact means a new person may be behind it: their consent is asked again and the ads wait for it.
    if (contactChanged) await consent.reopen(tx, updated);
    await commit?.(tx, profile.id);
  });
  return profile.id;
}
