CREATE TABLE "media_hashes" (
	"id" serial PRIMARY KEY NOT NULL,
	"media_id" integer,
	"verification_id" integer,
	"model_profile_id" integer NOT NULL,
	"kind" text NOT NULL,
	"hash" bigint NOT NULL,
	"mirror" bigint NOT NULL,
	"c0" integer GENERATED ALWAYS AS (((hash >> 48) & 65535)::int) STORED,
	"c1" integer GENERATED ALWAYS AS (((hash >> 32) & 65535)::int) STORED,
	"c2" integer GENERATED ALWAYS AS (((hash >> 16) & 65535)::int) STORED,
	"c3" integer GENERATED ALWAYS AS ((hash & 65535)::int) STORED,
	"flagged" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_hashes_one_subject" CHECK (("media_hashes"."media_id" IS NULL) <> ("media_hashes"."verification_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "removed_media_hashes" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"hash" bigint NOT NULL,
	"c0" integer GENERATED ALWAYS AS (((hash >> 48) & 65535)::int) STORED,
	"c1" integer GENERATED ALWAYS AS (((hash >> 32) & 65535)::int) STORED,
	"c2" integer GENERATED ALWAYS AS (((hash >> 16) & 65535)::int) STORED,
	"c3" integer GENERATED ALWAYS AS ((hash & 65535)::int) STORED,
	"ground" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_hashes" ADD CONSTRAINT "media_hashes_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_hashes" ADD CONSTRAINT "media_hashes_verification_id_verification_requests_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verification_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_hashes" ADD CONSTRAINT "media_hashes_model_profile_id_model_profiles_id_fk" FOREIGN KEY ("model_profile_id") REFERENCES "public"."model_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_hashes_c0_idx" ON "media_hashes" USING btree ("c0");--> statement-breakpoint
CREATE INDEX "media_hashes_c1_idx" ON "media_hashes" USING btree ("c1");--> statement-breakpoint
CREATE INDEX "media_hashes_c2_idx" ON "media_hashes" USING btree ("c2");--> statement-breakpoint
CREATE INDEX "media_hashes_c3_idx" ON "media_hashes" USING btree ("c3");--> statement-breakpoint
CREATE UNIQUE INDEX "media_hashes_media_kind_idx" ON "media_hashes" USING btree ("media_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "media_hashes_verification_kind_idx" ON "media_hashes" USING btree ("verification_id","kind");--> statement-breakpoint
CREATE INDEX "removed_media_hashes_c0_idx" ON "removed_media_hashes" USING btree ("c0");--> statement-breakpoint
CREATE INDEX "removed_media_hashes_c1_idx" ON "removed_media_hashes" USING btree ("c1");--> statement-breakpoint
CREATE INDEX "removed_media_hashes_c2_idx" ON "removed_media_hashes" USING btree ("c2");--> statement-breakpoint
CREATE INDEX "removed_media_hashes_c3_idx" ON "removed_media_hashes" USING btree ("c3");--> statement-breakpoint
CREATE UNIQUE INDEX "removed_media_hashes_hash_idx" ON "removed_media_hashes" USING btree ("hash","kind");--> statement-breakpoint
-- Issue 29: an ad with a photo flagged by the hash matching (another account's photo, or the removed list) that staff
-- have not reviewed yet is not listed, whatever its status: the model's upload succeeded as any other, and the ad
-- waits for a person. Otherwise the same as migration 0012.
CREATE OR REPLACE FUNCTION ads_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  profile_name text;
  profile_status text;
  profile_consent text;
  agency_ok boolean;
  accounts_ok boolean;
BEGIN
  SELECT p.display_name, p.status, p.consent_status, (p.publicist_id IS NULL OR pp.status = 'active'),
         (coalesce(u.status, '') <> 'suspended' AND coalesce(pu.status, '') <> 'suspended')
    INTO profile_name, profile_status, profile_consent, agency_ok, accounts_ok
    FROM model_profiles p
    LEFT JOIN publicist_profiles pp ON pp.id = p.publicist_id
    LEFT JOIN users u ON u.id = p.user_id
    LEFT JOIN users pu ON pu.id = pp.user_id
   WHERE p.id = NEW.model_profile_id;
  NEW.model_name := coalesce(profile_name, '');
  NEW.is_listed := NEW.is_active AND NEW.status = 'active' AND coalesce(profile_status = 'active', false)
    AND coalesce(profile_consent IN ('not_required', 'given'), false) AND coalesce(agency_ok, false)
    AND coalesce(accounts_ok, false)
    AND NOT EXISTS (SELECT 1 FROM media m JOIN media_hashes h ON h.media_id = m.id
                     WHERE m.ad_id = NEW.id AND m.reviewed_at IS NULL AND h.flagged);
  SELECT concat_ws(' ', NEW.model_name, NEW.title, NEW.description, c.name, st.name,
                   s.names->>'es', s.names->>'en', s.names->>'de', s.names->>'pt_BR')
    INTO NEW.search_document
    FROM cities c JOIN states st ON st.id = c.state_id, sections s
   WHERE c.id = NEW.city_id AND s.id = NEW.section_id;
  NEW.search_document := coalesce(NEW.search_document, '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE INDEX "media_hashes_flagged_idx" ON "media_hashes" ("media_id") WHERE flagged;--> statement-breakpoint
-- A flag set or lifted, or a flagged photo reviewed or removed, re-derives its ad (the no-op update fires ads_before_write).
CREATE FUNCTION media_hashes_relist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET model_profile_id = ads.model_profile_id
    FROM media m WHERE m.id = coalesce(NEW.media_id, OLD.media_id) AND ads.id = m.ad_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER media_hashes_after_flag AFTER INSERT OR UPDATE OF flagged ON media_hashes
  FOR EACH ROW WHEN (NEW.flagged AND NEW.media_id IS NOT NULL) EXECUTE FUNCTION media_hashes_relist();--> statement-breakpoint
CREATE TRIGGER media_hashes_after_unflag AFTER UPDATE OF flagged ON media_hashes
  FOR EACH ROW WHEN (OLD.flagged AND NOT NEW.flagged AND NEW.media_id IS NOT NULL) EXECUTE FUNCTION media_hashes_relist();--> statement-breakpoint
CREATE FUNCTION media_after_review_or_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM media_hashes h WHERE h.media_id = OLD.id AND h.flagged) OR TG_OP = 'DELETE' THEN
    UPDATE ads SET model_profile_id = ads.model_profile_id WHERE ads.id = OLD.ad_id AND NOT ads.is_listed;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER media_after_review AFTER UPDATE OF reviewed_at ON media
  FOR EACH ROW WHEN (OLD.reviewed_at IS NULL AND NEW.reviewed_at IS NOT NULL) EXECUTE FUNCTION media_after_review_or_delete();
--> statement-breakpoint
CREATE TRIGGER media_after_delete AFTER DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION media_after_review_or_delete();
