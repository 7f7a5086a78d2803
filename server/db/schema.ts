/**
 * Drizzle schema: the single description of the tables. Migrations in ./migrations are generated from it
 * (`npx drizzle-kit generate`), plus hand-written custom migrations for extensions and text search.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  customType,
  date,
  uuid,
  boolean,
  char,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  type AnyPgColumn,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

type Names = { es: string; en: string; de: string; pt_BR: string };

export const sections = pgTable('sections', {
  id: serial('id').primaryKey(),
  slug: varchar('slug', { length: 32 }).notNull().unique(),
  names: jsonb('names').$type<Names>().notNull(),
  color: varchar('color', { length: 7 }).notNull(),
  position: smallint('position').notNull(),
});

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  iso2: varchar('iso2', { length: 2 }).notNull().unique(),
  names: jsonb('names').$type<Names>().notNull(),
  phoneCode: varchar('phone_code', { length: 8 }).notNull(),
  position: smallint('position').notNull(),
});

export const states = pgTable(
  'states',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 8 }).notNull(),
    name: varchar('name', { length: 120 }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
  },
  (t) => [uniqueIndex('states_country_code_idx').on(t.countryId, t.code)],
);

export const cities = pgTable(
  'cities',
  {
    id: serial('id').primaryKey(),
    stateId: integer('state_id')
      .notNull()
      .references(() => states.id, { onDelete: 'cascade' }),
    /** INE municipality code for Spain. */
    code: varchar('code', { length: 12 }).notNull(),
    name: varchar('name', { length: 160 }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    population: integer('population').notNull().default(0),
  },
  (t) => [
    uniqueIndex('cities_state_code_idx').on(t.stateId, t.code),
    index('cities_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const pageViews = pgTable(
  'page_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    path: varchar('path', { length: 512 }).notNull(),
    language: varchar('language', { length: 8 }),
    referrerHost: varchar('referrer_host', { length: 255 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('page_views_created_at_idx').on(t.createdAt)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: varchar('key', { length: 64 }).notNull(),
    /** The actor: a user id, or the session/anonymous token hash for visitors. */
    actor: varchar('actor', { length: 128 }).notNull(),
    method: varchar('method', { length: 8 }).notNull(),
    path: text('path').notNull(),
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idempotency_keys_key_actor_idx').on(t.key, t.actor), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/** Accounts. `status` is the account's verification/moderation status (SPEC §4 values). */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 120 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    role: varchar('role', { length: 16 }).$type<'client' | 'model' | 'publicist' | 'admin' | 'super_admin'>().notNull(),
    status: varchar('status', { length: 16 })
      .$type<'unverified' | 'pending' | 'active' | 'rejected' | 'suspended' | 'paused'>()
      .notNull()
      .default('unverified'),
    locale: varchar('locale', { length: 8 }).notNull().default('es'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`), index('users_role_idx').on(t.role)],
);

/** Server-side sessions: only the SHA-256 of the random token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: char('id_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    passwordConfirmedAt: timestamp('password_confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Single-use password reset tokens, stored hashed, valid for 60 minutes. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/**
 * A model's profile with its contact details. Either the model's own (`user_id` set) or created by a publicist for a
 * model under their responsibility (`publicist_id` set, `user_id` usually null: the model need not have an account).
 * A publicist's model is listed only once the model has consented (`consent_status = 'given'`); the ads trigger reads it.
 */
export const modelProfiles = pgTable('model_profiles', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  publicistId: integer('publicist_id').references((): AnyPgColumn => publicistProfiles.id, { onDelete: 'cascade' }),
  /** Where the consent link goes for a publicist's model (e-mail; the phone is `phone`). */
  contactEmail: varchar('contact_email', { length: 254 }),
  /** `not_required` for the model's own profile; a publicist's model goes pending → given | withdrawn. */
  consentStatus: varchar('consent_status', { length: 16 })
    .$type<'not_required' | 'pending' | 'given' | 'withdrawn'>()
    .notNull()
    .default('not_required'),
  displayName: varchar('display_name', { length: 60 }).notNull(),
  status: varchar('status', { length: 16 })
    .$type<'unverified' | 'pending' | 'active' | 'rejected' | 'suspended' | 'paused'>()
    .notNull()
    .default('unverified'),
  birthDate: date('birth_date', { mode: 'string' }),
  /** E.164, normalised with libphonenumber-js. */
  phone: varchar('phone', { length: 20 }),
  /** The country whose numbering plan `phone` was checked against (ISO 3166-1 alpha-2). */
  phoneCountry: varchar('phone_country', { length: 2 }),
  whatsapp: boolean('whatsapp').notNull().default(false),
  countryId: integer('country_id').references(() => countries.id),
  reasons: jsonb('reasons').$type<{ codes: string[]; text?: string }>(),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Profile/Model Verify: the model photographs themself holding a code shown on screen. The code is issued first
 * (status `awaiting_photo`, short expiry); the selfie then goes to private storage (never served publicly) and the
 * request waits for staff (`pending` → `approved` | `rejected`).
 */
export const verificationRequests = pgTable(
  'verification_requests',
  {
    id: serial('id').primaryKey(),
    modelProfileId: integer('model_profile_id')
      .notNull()
      .references(() => modelProfiles.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 12 }).notNull(),
    status: varchar('status', { length: 16 })
      .$type<'awaiting_photo' | 'pending' | 'approved' | 'rejected'>()
      .notNull()
      .default('awaiting_photo'),
    /** Private storage key of the re-encoded selfie. */
    photoKey: varchar('photo_key', { length: 255 }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    reasons: jsonb('reasons').$type<{ codes: string[]; text?: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verification_requests_profile_idx').on(t.modelProfileId, t.createdAt),
    index('verification_requests_status_idx').on(t.status),
  ],
);

/** A publicist's (agency's) profile with its trader details. */
export const publicistProfiles = pgTable('publicist_profiles', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  displayName: varchar('display_name', { length: 120 }).notNull(),
  status: varchar('status', { length: 16 })
    .$type<'unverified' | 'pending' | 'active' | 'rejected' | 'suspended' | 'paused'>()
    .notNull()
    .default('pending'),
  // Trader details (EU DSA art. 30): who is behind the ads, shown to staff and checked before approval.
  legalName: varchar('legal_name', { length: 160 }),
  taxId: varchar('tax_id', { length: 32 }),
  address: varchar('address', { length: 300 }),
  phone: varchar('phone', { length: 20 }),
  phoneCountry: varchar('phone_country', { length: 2 }),
  email: varchar('email', { length: 254 }),
  reasons: jsonb('reasons').$type<{ codes: string[]; text?: string }>(),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Ads. Listed when switched on (`is_active`), approved (`status = 'active'`) and the model's profile is active —
 * the trigger keeps that in `is_listed`. `search_document` is the denormalised text people search (name, ad text,
 * city, province, the section's four names); `search_vector` is derived from it with the Spanish, accent-blind
 * `es_unaccent` configuration.
 */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    modelProfileId: integer('model_profile_id')
      .notNull()
      .references(() => modelProfiles.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 80 }).notNull(),
    description: text('description').notNull().default(''),
    sectionId: integer('section_id')
      .notNull()
      .references(() => sections.id),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    isActive: boolean('is_active').notNull().default(true),
    status: varchar('status', { length: 16 })
      .$type<'unverified' | 'pending' | 'active' | 'rejected' | 'suspended' | 'paused'>()
      .notNull()
      .default('pending'),
    version: integer('version').notNull().default(1),
    // Kept by the ads_before_write trigger (migration 0004), never written by the app: the model's name, whether the ad
    // is publicly listed (switched on + approved + profile active) and the searchable text. Denormalised so the listing
    // and its count read one table through one partial index, instead of joining profiles for every candidate row.
    modelName: text('model_name').notNull().default(''),
    isListed: boolean('is_listed').notNull().default(false),
    searchDocument: text('search_document').notNull().default(''),
    // Kept by triggers (migration 0016), never written by the app: goes up whenever anything a listing card shows may
    // have changed (the ad, its model's name, birth date, status or account, its photos), so a card serialized once
    // is reused, per process, while its version stands (listings/card-cache.ts).
    cardVersion: integer('card_version').notNull().default(1),
    // The name weighs 'A' so her own ad ranks above one that merely mentions her.
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('es_unaccent'::regconfig, model_name), 'A') || setweight(to_tsvector('es_unaccent'::regconfig, search_document), 'D')`,
    ),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ads_model_profile_idx').on(t.modelProfileId),
    index('ads_listed_city_section_idx')
      .on(t.cityId, t.sectionId, t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.isListed}`),
    index('ads_listed_section_idx')
      .on(t.sectionId, t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.isListed}`),
    // Built with INCLUDE (search_vector) by migration 0016 (Drizzle cannot say INCLUDE): the search walks it index-only.
    index('ads_listed_recent_idx')
      .on(t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.isListed}`),
    index('ads_listed_search_vector_idx')
      .using('gin', t.searchVector)
      .where(sql`${t.isListed}`),
  ],
);

/**
 * The vocabulary of typo correction: each distinct word (accent-blind, lower-case) of the listed ads' own text (name,
 * title, description, city, province; not the section names), with how many listed ads use it. Kept by statement
 * triggers on ads (migration 0013), so it follows every listing change in the same transaction.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    ads: integer('ads').notNull(),
    /**
     * The word as full-text search indexes it (its Spanish stem; null for a stop word): "martina" and "martin" share
     * 'martin', so a search for either matches the ads of both, and the search's plan is chosen on their sum.
     */
    lexeme: text('lexeme').generatedAlwaysAs(sql`(tsvector_to_array(to_tsvector('es_unaccent'::regconfig, word)))[1]`),
  },
  (t) => [index('search_words_trgm_idx').using('gist', t.word.op('gist_trgm_ops')), index('search_words_lexeme_idx').on(t.lexeme)],
);

/**
 * How many ads are listed per city and section, kept by statement-level triggers on ads (migration 0016) in the same
 * transaction as the change. The listing's total is a sum of these rows instead of a count of the ads (at 100,000 ads
 * counting one city's section read ~1,000 index entries, half of what the page cost the database), and the search
 * weighs a word's frequency against them to choose how to find its most recent matches.
 */
export const listingCounts = pgTable(
  'listing_counts',
  {
    cityId: integer('city_id').notNull(),
    sectionId: integer('section_id').notNull(),
    ads: integer('ads').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.sectionId] }), index('listing_counts_section_idx').on(t.sectionId)],
);

export interface MediaModeration {
  provider: string;
  scores: { sexual_activity: number; sexual_display: number; erotica: number };
  /** The provider's raw classes (nsfwjs probabilities, or Sightengine's nudity object), kept for later review. */
  details?: Record<string, unknown>;
  /** The decoded file's format (jpeg, png, webp, heif…), before re-encoding. */
  source_format?: string;
  checked_at: string;
}

/** Photos of an ad. Files live in storage under `ads/{adId}/{uid}/{width}.webp`; exactly one is the cover. */
export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    uid: uuid('uid').notNull().unique(),
    isCover: boolean('is_cover').notNull().default(false),
    position: integer('position').notNull().default(0),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Widths of the stored WebP variants. */
    variants: jsonb('variants').$type<number[]>().notNull(),
    /** The screening that let the photo in (SPEC §5): provider, the three scores and the provider's own classes. */
    moderation: jsonb('moderation').$type<MediaModeration>(),
    /** Who uploaded it (the model, or staff acting for them). */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When staff looked at it and kept it (null: still in the photo review queue). A removed photo has no row. */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('media_ad_idx').on(t.adId, t.position),
    index('media_review_queue_idx')
      .on(t.createdAt)
      .where(sql`${t.reviewedAt} IS NULL`),
    uniqueIndex('media_one_cover_per_ad_idx')
      .on(t.adId)
      .where(sql`${t.isCover}`),
  ],
);

/**
 * Photos the automated screening refused (issue 24 B7), kept unlisted so that a person can look at them when the
 * uploader asks: files under the private storage key `held/{uid}/{width}.webp`, which /media/* never serves. A
 * refusal nobody contests is removed after `expires_at`; one sent to review stays until staff decide: approved, it
 * becomes a `media` row of the ad (files copied under `ads/`); rejected, its files are removed and the row stays as
 * the record of the decision.
 */
export const photoReviews = pgTable(
  'photo_reviews',
  {
    id: serial('id').primaryKey(),
    /** Handed to the uploader with the refusal: what the review request names. */
    token: uuid('token').notNull().unique(),
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    uid: uuid('uid').notNull().unique(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    variants: jsonb('variants').$type<number[]>().notNull(),
    moderation: jsonb('moderation').$type<MediaModeration>().notNull(),
    /** The SPEC §5 score that was over its threshold (the highest one when several were). */
    rule: varchar('rule', { length: 24 }).$type<'sexual_activity' | 'sexual_display' | 'erotica'>().notNull(),
    status: varchar('status', { length: 16 }).$type<'refused' | 'requested' | 'approved' | 'rejected'>().notNull().default('refused'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Until when a refusal can still be sent to review (its files are removed after). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    /** The statement of reasons of the automated refusal, issued when the review was asked for; the request is its appeal. */
    statementId: integer('statement_id').references(() => statements.id, { onDelete: 'set null' }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The photo an approval added to the ad. */
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('photo_reviews_queue_idx')
      .on(t.requestedAt)
      .where(sql`${t.status} = 'requested'`),
    index('photo_reviews_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'refused'`),
  ],
);

/**
 * Web Push subscriptions (issue 25): one row per device (the browser's endpoint is unique), owned by a user and by the
 * session that made it, so that signing out drops that device's. The endpoint was checked against the push services'
 * origins when it was stored (contract/push.ts endpointAllowed) and is checked again before every send.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The session that subscribed: when it ends (sign-out, expiry, "sign out everywhere", a password reset) the device
     * is signed out and its subscription goes with it.
     */
    sessionHash: char('session_hash', { length: 64 })
      .notNull()
      .references(() => sessions.idHash, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: varchar('p256dh', { length: 128 }).notNull(),
    auth: varchar('auth', { length: 64 }).notNull(),
    expirationTime: timestamp('expiration_time', { withTimezone: true }),
    browser: varchar('browser', { length: 64 }),
    os: varchar('os', { length: 64 }),
    deviceType: varchar('device_type', { length: 16 }).$type<'mobile' | 'tablet'>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastPushAt: timestamp('last_push_at', { withTimezone: true }),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId), index('push_subscriptions_session_idx').on(t.sessionHash)],
);

/** A user's push switches (contract/push.ts PushPreferences); no row = every category on, previews shown. */
export const pushPreferences = pgTable('push_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  supportChat: boolean('support_chat').notNull().default(true),
  decisions: boolean('decisions').notNull().default(true),
  consent: boolean('consent').notNull().default(true),
  previews: boolean('previews').notNull().default(true),
  /** Issue 28 (migration 0020): saved searches' instant alerts. */
  savedSearches: boolean('saved_searches').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Promoted placements: labelled as advertising with who paid (EU DSA art. 26); the same for every visitor. */
export const publicityAds = pgTable('publicity_ads', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 120 }).notNull(),
  body: varchar('body', { length: 240 }).notNull().default(''),
  advertiser: varchar('advertiser', { length: 160 }).notNull(),
  imageKey: varchar('image_key', { length: 255 }),
  targetUrl: varchar('target_url', { length: 500 }).notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  isActive: boolean('is_active').notNull().default(true),
  position: integer('position').notNull().default(0),
});

/**
 * A publicist's request that a model agrees to be listed by them. Only the SHA-256 of the link's token and of the
 * short code is stored; the link is single-use for giving consent. Withdrawal works from the model's own account or a
 * separate withdrawal token mailed with the confirmation.
 */
export const modelConsents = pgTable(
  'model_consents',
  {
    id: serial('id').primaryKey(),
    modelProfileId: integer('model_profile_id')
      .notNull()
      .references(() => modelProfiles.id, { onDelete: 'cascade' }),
    publicistId: integer('publicist_id')
      .notNull()
      .references(() => publicistProfiles.id, { onDelete: 'cascade' }),
    /** Where the request went (e-mail or E.164 phone). */
    contact: varchar('contact', { length: 254 }).notNull(),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    codeHash: char('code_hash', { length: 64 }),
    /** Wrong codes tried for this request's contact; at CONSENT_CODE_ATTEMPTS the code is burnt (code_hash null). */
    codeAttempts: smallint('code_attempts').notNull().default(0),
    /** The token handed out for a correct code: opens the same pages as the mailed link. */
    codeTokenHash: char('code_token_hash', { length: 64 }).unique(),
    withdrawTokenHash: char('withdraw_token_hash', { length: 64 }).unique(),
    status: varchar('status', { length: 16 }).$type<'pending' | 'given' | 'withdrawn' | 'expired'>().notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_consents_profile_idx').on(t.modelProfileId, t.createdAt), index('model_consents_contact_idx').on(t.contact)],
);

/**
 * Statements of reasons (EU DSA art. 17): one per restriction staff (or an automated check) imposed. Kept in the
 * recipient's language at the time, so what they were sent is what they see.
 */
export const statements = pgTable(
  'statements',
  {
    id: serial('id').primaryKey(),
    /**
     * Who is told: the account owner, or the publicist for a model without an account. A plain number, not a
     * reference: statements outlive an erased account (the law keeps them), with the person's data reduced.
     */
    userId: integer('user_id'),
    subjectType: varchar('subject_type', { length: 24 })
      .$type<'ad' | 'media' | 'model_profile' | 'publicist_profile' | 'user' | 'verification' | 'photo_review'>()
      .notNull(),
    subjectId: integer('subject_id').notNull(),
    /** What was restricted: rejected, suspended, paused, removed. */
    decision: varchar('decision', { length: 16 }).notNull(),
    reasonCodes: jsonb('reason_codes').$type<string[]>().notNull(),
    /** The facts and circumstances, in staff's words. */
    facts: text('facts').notNull().default(''),
    /** The rule broken (terms clause or law), as a code the client translates. */
    ground: varchar('ground', { length: 64 }).notNull(),
    automated: boolean('automated').notNull().default(false),
    /** e.g. the moderation scores when automated means were used. */
    automatedDetail: jsonb('automated_detail').$type<Record<string, unknown>>(),
    language: varchar('language', { length: 8 }).notNull().default('es'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    appealUntil: timestamp('appeal_until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('statements_user_idx').on(t.userId, t.createdAt), index('statements_subject_idx').on(t.subjectType, t.subjectId)],
);

/** Appeals (EU DSA art. 20): one per statement, decided by a person. */
export const appeals = pgTable(
  'appeals',
  {
    id: serial('id').primaryKey(),
    statementId: integer('statement_id')
      .notNull()
      .unique()
      .references(() => statements.id, { onDelete: 'cascade' }),
    /** A plain number like statements.user_id: the appeal outlives an erased account, its text reduced. */
    userId: integer('user_id'),
    text: text('text').notNull(),
    status: varchar('status', { length: 16 }).$type<'pending' | 'upheld' | 'reversed'>().notNull().default('pending'),
    decisionText: text('decision_text'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('appeals_status_idx').on(t.status, t.createdAt)],
);

/** Notices from anyone (EU DSA art. 16). Urgent reasons sort first and are flagged for the authorities (art. 18). */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    adId: integer('ad_id').references(() => ads.id, { onDelete: 'set null' }),
    /** What the ad looked like when reported (it may change or go). */
    adSnapshot: jsonb('ad_snapshot').$type<Record<string, unknown>>(),
    reason: varchar('reason', { length: 24 }).notNull(),
    details: text('details').notNull(),
    contact: varchar('contact', { length: 254 }),
    language: varchar('language', { length: 8 }).notNull().default('es'),
    /** 0 = urgent (minor, trafficking), higher = later. */
    priority: integer('priority').notNull().default(2),
    escalate: boolean('escalate').notNull().default(false),
    status: varchar('status', { length: 16 }).$type<'open' | 'actioned' | 'dismissed'>().notNull().default('open'),
    /** Shown to the reporter as their receipt. */
    receipt: varchar('receipt', { length: 16 }).notNull().unique(),
    reporterUserId: integer('reporter_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** HMAC of the reporter's IP, for rate limits and spotting floods, never the IP itself. */
    ipHash: char('ip_hash', { length: 64 }),
    decisionText: text('decision_text'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reports_queue_idx').on(t.status, t.priority, t.createdAt), index('reports_ad_idx').on(t.adId)],
);

/** Contact form (visitors) and message-to-admin (signed-in users). */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 16 }).$type<'contact' | 'admin'>().notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 120 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 160 }).notNull(),
    message: text('message').notNull(),
    language: varchar('language', { length: 8 }).notNull().default('es'),
    status: varchar('status', { length: 16 }).$type<'new' | 'read' | 'archived'>().notNull().default('new'),
    ipHash: char('ip_hash', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_status_idx').on(t.status, t.createdAt)],
);

/**
 * Audit log: every staff decision and every change staff make to someone else's data. Append-only — a trigger
 * (migration 0007) refuses UPDATE and DELETE, so the app cannot rewrite history. The actor is copied, not referenced,
 * so entries outlive deleted accounts.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id'),
    actorRole: varchar('actor_role', { length: 16 }),
    actorEmail: varchar('actor_email', { length: 254 }),
    action: varchar('action', { length: 64 }).notNull(),
    subjectType: varchar('subject_type', { length: 24 }).notNull(),
    subjectId: integer('subject_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: jsonb('reason').$type<{ codes?: string[]; text?: string }>(),
    ip: varchar('ip', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_subject_idx').on(t.subjectType, t.subjectId)],
);

/**
 * Data exports (GDPR arts. 15, 20): one archive per request, built in the background into private storage
 * (`exports/{userId}/…`) and downloadable by its owner through a signed link until `expires_at`.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).$type<'pending' | 'ready' | 'failed'>().notNull().default('pending'),
    /** Private storage key of the zip, once built. */
    storageKey: varchar('storage_key', { length: 255 }),
    sizeBytes: integer('size_bytes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('data_exports_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Notifications (SPEC §3): what a user should hear about, stored in their language at the time and broadcast on
 * their private channel. `kind` says what happened; `type` how it is shown (success, info, warning, error).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 48 }).notNull(),
    type: varchar('type', { length: 16 }).$type<'success' | 'info' | 'warning' | 'error'>().notNull(),
    message: text('message').notNull(),
    description: text('description'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * Support chat: one conversation per user (staff and the user reopen it rather than start another), so the whole
 * history is in one place. `last_seq` hands out the messages' sequence numbers under the row's lock; the read marks
 * say up to which seq each side has seen the other's messages.
 */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 16 }).$type<'open' | 'resolved'>().notNull().default('open'),
    lastSeq: integer('last_seq').notNull().default(0),
    userReadSeq: integer('user_read_seq').notNull().default(0),
    staffReadSeq: integer('staff_read_seq').notNull().default(0),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('support_conversations_status_idx').on(t.status, t.updatedAt),
    index('support_conversations_assigned_idx').on(t.assignedTo, t.status),
  ],
);

/** Chat messages: plain text, numbered per conversation (the client catches up by seq after a reconnection). */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => supportConversations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** Null once the sender's account is gone (a staff member's replies stay in the user's history). */
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    isStaff: boolean('is_staff').notNull(),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('support_messages_seq_idx').on(t.conversationId, t.seq), index('support_messages_sender_idx').on(t.senderId)],
);

/**
 * Delayed and background work that must survive a restart (the chat's e-mail after 10 minutes). A runner in each
 * process takes due rows with FOR UPDATE SKIP LOCKED and a lease (`locked_until`), so each job runs once across
 * nodes; a failure is retried later with back-off, up to `max_attempts`, then kept with `failed_at`. `key` names a
 * job so it can be replaced or cancelled (e.g. one pending e-mail per conversation).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    key: varchar('key', { length: 128 }).unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.failedAt} IS NULL`),
  ],
);

/**
 * A signed-in user's favourite ads (issue 28). No foreign key to the ad: a favourite outlives its ad, so the
 * "Favoritas" list can say "no longer available" instead of losing the row; the user's own rows go with the account.
 * The model never sees who saved her ad, only how many did (ad statistics count these rows).
 */
export const favourites = pgTable(
  'favourites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adId: integer('ad_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.adId] }), index('favourites_ad_idx').on(t.adId, t.createdAt)],
);

/**
 * A saved listing query (issue 28): the listing's own filters (search text, city, section) with a name and how its
 * owner wants to hear of new matches. The columns the matching needs are added by migration 0020.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 60 }).notNull(),
    search: varchar('search', { length: 100 }).notNull().default(''),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    sectionId: integer('section_id').references(() => sections.id, { onDelete: 'set null' }),
    alerts: varchar('alerts', { length: 8 }).$type<'instant' | 'daily' | 'off'>().notNull().default('instant'),
    paused: boolean('paused').notNull().default(false),
    lastAlertAt: timestamp('last_alert_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The index keys the matching finds it by (migration 0020: kept by a trigger from search, city and section). */
    matchKeys: text('match_keys')
      .array()
      .notNull()
      .default(sql`'{never}'::text[]`),
    /** Deletion keys of the words the vocabulary lacked when saved, for typo-corrected matches (migration 0020). */
    typoKeys: text('typo_keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.createdAt),
    // Migration 0023: the searches with text by their keys, those without by their city and section.
    index('saved_searches_match_idx')
      .using('gin', t.matchKeys)
      .where(sql`NOT ${t.paused} AND ${t.alerts} <> 'off' AND ${t.search} <> ''`),
    index('saved_searches_scope_idx')
      .on(t.cityId, t.sectionId)
      .where(sql`NOT ${t.paused} AND ${t.alerts} <> 'off' AND ${t.search} = ''`),
    index('saved_searches_typo_idx')
      .using('gin', t.typoKeys)
      .where(sql`NOT ${t.paused} AND ${t.alerts} <> 'off'`),
  ],
);

/**
 * An ad that became visible and matched a saved search; `alerted_at` is set when an alert (notification, push or the
 * daily e-mail) has named it, so each ad is announced once per search and alerts can be bundled.
 */
export const savedSearchHits = pgTable(
  'saved_search_hits',
  {
    searchId: integer('search_id')
      .notNull()
      .references(() => savedSearches.id, { onDelete: 'cascade' }),
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    matchedAt: timestamp('matched_at', { withTimezone: true }).notNull().defaultNow(),
    alertedAt: timestamp('alerted_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.searchId, t.adId] }),
    index('saved_search_hits_pending_idx')
      .on(t.searchId)
      .where(sql`${t.alertedAt} IS NULL`),
  ],
);

/**
 * Advertisers' numbers per ad and ISO week (Monday's date), first-party and aggregate only: no visitor is named.
 * Favourites are counted from `favourites` when read. Columns may be added by migration 0021.
 */
export const adStatsWeekly = pgTable(
  'ad_stats_weekly',
  {
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    week: date('week').notNull(),
    impressions: integer('impressions').notNull().default(0),
    opens: integer('opens').notNull().default(0),
    calls: integer('calls').notNull().default(0),
    messages: integer('messages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adId, t.week] })],
);

/**
 * Perceptual hashes of stored photos and verification selfies (issue 29, modules/media-hashes). Two rows per image:
 * `full` (the whole picture) and `centre` (its middle 90 %, so a copy cropped by 5 % a side finds it). The four 16-bit
 * chunks are the multi-index lookup's keys (a hash within 7 bits of another shares at least one chunk within 1 bit).
 * `flagged`: the photo matched another account's photo or the removed list at upload; while a flagged photo is not
 * reviewed, its ad is not listed (ads_before_write, migration 0022).
 */
export const mediaHashes = pgTable(
  'media_hashes',
  {
    id: serial('id').primaryKey(),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'cascade' }),
    verificationId: integer('verification_id').references(() => verificationRequests.id, { onDelete: 'cascade' }),
    /** The account side the "same account never matches" rule compares (the model's profile: her user, her agency). */
    modelProfileId: integer('model_profile_id')
      .notNull()
      .references(() => modelProfiles.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['full', 'centre'] }).notNull(),
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    /** The hash of the same picture mirrored: not indexed, a lookup key when staff ask for this photo's matches. */
    mirror: bigint('mirror', { mode: 'bigint' }).notNull(),
    c0: integer('c0').generatedAlwaysAs(sql`((hash >> 48) & 65535)::int`),
    c1: integer('c1').generatedAlwaysAs(sql`((hash >> 32) & 65535)::int`),
    c2: integer('c2').generatedAlwaysAs(sql`((hash >> 16) & 65535)::int`),
    c3: integer('c3').generatedAlwaysAs(sql`(hash & 65535)::int`),
    flagged: boolean('flagged').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('media_hashes_c0_idx').on(t.c0),
    index('media_hashes_c1_idx').on(t.c1),
    index('media_hashes_c2_idx').on(t.c2),
    index('media_hashes_c3_idx').on(t.c3),
    uniqueIndex('media_hashes_media_kind_idx').on(t.mediaId, t.kind),
    uniqueIndex('media_hashes_verification_kind_idx').on(t.verificationId, t.kind),
    check('media_hashes_one_subject', sql`(${t.mediaId} IS NULL) <> (${t.verificationId} IS NULL)`),
  ],
);

/**
 * The removed list (issue 29 point 3): hashes of photos staff removed for stolen or illegal content, with the ground
 * (a rule code) and when. Never an image and never a link to a user or a photo: it outlives the account's erasure.
 */
export const removedMediaHashes = pgTable(
  'removed_media_hashes',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['full', 'centre'] }).notNull(),
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    c0: integer('c0').generatedAlwaysAs(sql`((hash >> 48) & 65535)::int`),
    c1: integer('c1').generatedAlwaysAs(sql`((hash >> 32) & 65535)::int`),
    c2: integer('c2').generatedAlwaysAs(sql`((hash >> 16) & 65535)::int`),
    c3: integer('c3').generatedAlwaysAs(sql`(hash & 65535)::int`),
    ground: text('ground').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('removed_media_hashes_c0_idx').on(t.c0),
    index('removed_media_hashes_c1_idx').on(t.c1),
    index('removed_media_hashes_c2_idx').on(t.c2),
    index('removed_media_hashes_c3_idx').on(t.c3),
    uniqueIndex('removed_media_hashes_hash_idx').on(t.hash, t.kind),
  ],
);
