CREATE TABLE "appeals" (
	"id" serial PRIMARY KEY NOT NULL,
	"statement_id" integer NOT NULL,
	"user_id" integer,
	"text" text NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"decision_text" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appeals_statement_id_unique" UNIQUE("statement_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"actor_role" varchar(16),
	"actor_email" varchar(254),
	"action" varchar(64) NOT NULL,
	"subject_type" varchar(24) NOT NULL,
	"subject_id" integer,
	"before" jsonb,
	"after" jsonb,
	"reason" jsonb,
	"ip" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"user_id" integer,
	"name" varchar(120) NOT NULL,
	"email" varchar(254) NOT NULL,
	"subject" varchar(160) NOT NULL,
	"message" text NOT NULL,
	"language" varchar(8) DEFAULT 'es' NOT NULL,
	"status" varchar(16) DEFAULT 'new' NOT NULL,
	"ip_hash" char(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_profile_id" integer NOT NULL,
	"publicist_id" integer NOT NULL,
	"contact" varchar(254) NOT NULL,
	"token_hash" char(64) NOT NULL,
	"code_hash" char(64),
	"withdraw_token_hash" char(64),
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"given_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_consents_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "model_consents_withdraw_token_hash_unique" UNIQUE("withdraw_token_hash")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"ad_id" integer,
	"ad_snapshot" jsonb,
	"reason" varchar(24) NOT NULL,
	"details" text NOT NULL,
	"contact" varchar(254),
	"language" varchar(8) DEFAULT 'es' NOT NULL,
	"priority" integer DEFAULT 2 NOT NULL,
	"escalate" boolean DEFAULT false NOT NULL,
	"status" varchar(16) DEFAULT 'open' NOT NULL,
	"receipt" varchar(16) NOT NULL,
	"reporter_user_id" integer,
	"ip_hash" char(64),
	"decision_text" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_receipt_unique" UNIQUE("receipt")
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"subject_type" varchar(24) NOT NULL,
	"subject_id" integer NOT NULL,
	"decision" varchar(16) NOT NULL,
	"reason_codes" jsonb NOT NULL,
	"facts" text DEFAULT '' NOT NULL,
	"ground" varchar(64) NOT NULL,
	"automated" boolean DEFAULT false NOT NULL,
	"automated_detail" jsonb,
	"language" varchar(8) DEFAULT 'es' NOT NULL,
	"decided_by" integer,
	"appeal_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "model_profiles" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "publicist_id" integer;--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "contact_email" varchar(254);--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "consent_status" varchar(16) DEFAULT 'not_required' NOT NULL;--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "legal_name" varchar(160);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "tax_id" varchar(32);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "address" varchar(300);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "phone" varchar(20);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "phone_country" varchar(2);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "email" varchar(254);--> statement-breakpoint
ALTER TABLE "publicist_profiles" ADD COLUMN "reasons" jsonb;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_consents" ADD CONSTRAINT "model_consents_model_profile_id_model_profiles_id_fk" FOREIGN KEY ("model_profile_id") REFERENCES "public"."model_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_consents" ADD CONSTRAINT "model_consents_publicist_id_publicist_profiles_id_fk" FOREIGN KEY ("publicist_id") REFERENCES "public"."publicist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeals_status_idx" ON "appeals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "contact_messages_status_idx" ON "contact_messages" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "model_consents_profile_idx" ON "model_consents" USING btree ("model_profile_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_queue_idx" ON "reports" USING btree ("status","priority","created_at");--> statement-breakpoint
CREATE INDEX "reports_ad_idx" ON "reports" USING btree ("ad_id");--> statement-breakpoint
CREATE INDEX "statements_user_idx" ON "statements" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "statements_subject_idx" ON "statements" USING btree ("subject_type","subject_id");--> statement-breakpoint
ALTER TABLE "model_profiles" ADD CONSTRAINT "model_profiles_publicist_id_publicist_profiles_id_fk" FOREIGN KEY ("publicist_id") REFERENCES "public"."publicist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A publicist's model is listed only with the model's consent (not_required for the model's own profile).
CREATE OR REPLACE FUNCTION ads_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  profile_name text;
  profile_status text;
  profile_consent text;
BEGIN
  SELECT display_name, status, consent_status INTO profile_name, profile_status, profile_consent
    FROM model_profiles WHERE id = NEW.model_profile_id;
  NEW.model_name := coalesce(profile_name, '');
  NEW.is_listed := NEW.is_active AND NEW.status = 'active' AND coalesce(profile_status = 'active', false)
    AND coalesce(profile_consent IN ('not_required', 'given'), false);
  SELECT concat_ws(' ', NEW.model_name, NEW.title, NEW.description, c.name, st.name,
                   s.names->>'es', s.names->>'en', s.names->>'de', s.names->>'pt_BR')
    INTO NEW.search_document
    FROM cities c JOIN states st ON st.id = c.state_id, sections s
   WHERE c.id = NEW.city_id AND s.id = NEW.section_id;
  NEW.search_document := coalesce(NEW.search_document, '');
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER model_profiles_after_update ON model_profiles;--> statement-breakpoint
CREATE TRIGGER model_profiles_after_update AFTER UPDATE OF display_name, status, consent_status ON model_profiles
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.consent_status IS DISTINCT FROM NEW.consent_status)
  EXECUTE FUNCTION model_profiles_after_update();--> statement-breakpoint
-- The audit log is append-only: history cannot be rewritten through the app's connection.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE INDEX model_profiles_publicist_idx ON model_profiles (publicist_id, created_at DESC) WHERE publicist_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE model_profiles ADD CONSTRAINT model_profiles_owner_check CHECK (user_id IS NOT NULL OR publicist_id IS NOT NULL);
