ALTER TABLE "media" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_review_queue_idx" ON "media" USING btree ("created_at") WHERE "media"."reviewed_at" IS NULL;