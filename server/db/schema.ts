/**
 * Drizzle schema: the single description of the tables. Migrations in ./migrations are generated from it
 * (`npx drizzle-kit generate`), plus hand-written custom migrations for extensions and text search.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
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
