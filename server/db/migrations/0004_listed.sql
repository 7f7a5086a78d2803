-- Listings read one table: whether an ad is listed and the model's name are kept on `ads` by triggers, so the
-- public listing and its count walk one partial index instead of joining model_profiles for every candidate row.
DROP INDEX "ads_visible_city_section_idx";--> statement-breakpoint
DROP INDEX "ads_visible_section_idx";--> statement-breakpoint
DROP INDEX "ads_visible_recent_idx";--> statement-breakpoint
DROP INDEX "ads_search_vector_idx";--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "model_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "is_listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('es_unaccent'::regconfig, model_name), 'A') || setweight(to_tsvector('es_unaccent'::regconfig, search_document), 'D')) STORED;--> statement-breakpoint
-- Every write to an ad recomputes what is derived from it and from its profile, city and section: the app never
-- writes model_name, is_listed or search_document, so they cannot drift.
CREATE FUNCTION ads_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  profile_name text;
  profile_status text;
BEGIN
  SELECT display_name, status INTO profile_name, profile_status FROM model_profiles WHERE id = NEW.model_profile_id;
  NEW.model_name := coalesce(profile_name, '');
  NEW.is_listed := NEW.is_active AND NEW.status = 'active' AND coalesce(profile_status = 'active', false);
  SELECT concat_ws(' ', NEW.model_name, NEW.title, NEW.description, c.name, st.name,
                   s.names->>'es', s.names->>'en', s.names->>'de', s.names->>'pt_BR')
    INTO NEW.search_document
    FROM cities c JOIN states st ON st.id = c.state_id, sections s
   WHERE c.id = NEW.city_id AND s.id = NEW.section_id;
  NEW.search_document := coalesce(NEW.search_document, '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER ads_before_write BEFORE INSERT OR UPDATE ON ads FOR EACH ROW EXECUTE FUNCTION ads_before_write();--> statement-breakpoint
-- A profile's name or status change re-derives its ads (the no-op update fires ads_before_write).
CREATE FUNCTION model_profiles_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET model_profile_id = model_profile_id WHERE model_profile_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER model_profiles_after_update AFTER UPDATE OF display_name, status ON model_profiles
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION model_profiles_after_update();--> statement-breakpoint
UPDATE ads SET model_profile_id = model_profile_id;--> statement-breakpoint
CREATE INDEX "ads_listed_city_section_idx" ON "ads" USING btree ("city_id","section_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_listed";--> statement-breakpoint
CREATE INDEX "ads_listed_section_idx" ON "ads" USING btree ("section_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_listed";--> statement-breakpoint
CREATE INDEX "ads_listed_recent_idx" ON "ads" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_listed";--> statement-breakpoint
CREATE INDEX "ads_listed_search_vector_idx" ON "ads" USING gin ("search_vector") WHERE "ads"."is_listed";
