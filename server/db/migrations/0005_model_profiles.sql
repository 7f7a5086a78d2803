CREATE TABLE "verification_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_profile_id" integer NOT NULL,
	"code" varchar(12) NOT NULL,
	"status" varchar(16) DEFAULT 'awaiting_photo' NOT NULL,
	"photo_key" varchar(255),
	"expires_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	"reasons" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "phone_country" varchar(2);--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "country_id" integer;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD CONSTRAINT "verification_requests_model_profile_id_model_profiles_id_fk" FOREIGN KEY ("model_profile_id") REFERENCES "public"."model_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_requests" ADD CONSTRAINT "verification_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_requests_profile_idx" ON "verification_requests" USING btree ("model_profile_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_requests_status_idx" ON "verification_requests" USING btree ("status");--> statement-breakpoint
ALTER TABLE "model_profiles" ADD CONSTRAINT "model_profiles_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;