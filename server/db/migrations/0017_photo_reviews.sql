CREATE TABLE "photo_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" uuid NOT NULL,
	"ad_id" integer NOT NULL,
	"uid" uuid NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"moderation" jsonb NOT NULL,
	"rule" varchar(24) NOT NULL,
	"status" varchar(16) DEFAULT 'refused' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone,
	"statement_id" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"media_id" integer,
	CONSTRAINT "photo_reviews_token_unique" UNIQUE("token"),
	CONSTRAINT "photo_reviews_uid_unique" UNIQUE("uid")
);
--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photo_reviews_queue_idx" ON "photo_reviews" USING btree ("requested_at") WHERE "photo_reviews"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "photo_reviews_expiry_idx" ON "photo_reviews" USING btree ("expires_at") WHERE "photo_reviews"."status" = 'refused';