CREATE TABLE "data_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"storage_key" varchar(255),
	"size_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "appeals" DROP CONSTRAINT "appeals_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "statements" DROP CONSTRAINT "statements_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_user_idx" ON "data_exports" USING btree ("user_id","created_at");--> statement-breakpoint
-- Erasure (GDPR art. 17) may reduce an entry's personal data and nothing else: inside a transaction that set
-- vitrina.erasure = 'on' (set_config(…, true): that transaction only), an UPDATE may change actor_email, ip, before,
-- after and reason; who acted, on what, what they did and when stay as written. DELETE and TRUNCATE stay refused.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('vitrina.erasure', true), '') = 'on'
     AND NEW.id = OLD.id AND NEW.action = OLD.action AND NEW.subject_type = OLD.subject_type
     AND NEW.subject_id IS NOT DISTINCT FROM OLD.subject_id AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_role IS NOT DISTINCT FROM OLD.actor_role AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
