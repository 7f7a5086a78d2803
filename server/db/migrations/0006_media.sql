ALTER TABLE "media" ADD COLUMN "moderation" jsonb;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;