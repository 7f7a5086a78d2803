CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_profile_id" integer NOT NULL,
	"title" varchar(80) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"section_id" integer NOT NULL,
	"city_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"search_document" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('es_unaccent'::regconfig, search_document)) STORED,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" serial PRIMARY KEY NOT NULL,
	"ad_id" integer NOT NULL,
	"uid" uuid NOT NULL,
	"is_cover" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_uid_unique" UNIQUE("uid")
);
--> statement-breakpoint
CREATE TABLE "publicity_ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(120) NOT NULL,
	"body" varchar(240) DEFAULT '' NOT NULL,
	"advertiser" varchar(160) NOT NULL,
	"image_key" varchar(255),
	"target_url" varchar(500) NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "birth_date" date;--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "phone" varchar(20);--> statement-breakpoint
ALTER TABLE "model_profiles" ADD COLUMN "whatsapp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_model_profile_id_model_profiles_id_fk" FOREIGN KEY ("model_profile_id") REFERENCES "public"."model_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ads_model_profile_idx" ON "ads" USING btree ("model_profile_id");--> statement-breakpoint
CREATE INDEX "ads_visible_city_section_idx" ON "ads" USING btree ("city_id","section_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_active" and "ads"."status" = 'active';--> statement-breakpoint
CREATE INDEX "ads_visible_section_idx" ON "ads" USING btree ("section_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_active" and "ads"."status" = 'active';--> statement-breakpoint
CREATE INDEX "ads_visible_recent_idx" ON "ads" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ads"."is_active" and "ads"."status" = 'active';--> statement-breakpoint
CREATE INDEX "ads_search_vector_idx" ON "ads" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "ads_search_trgm_idx" ON "ads" USING gin (immutable_unaccent(lower("search_document")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "media_ad_idx" ON "media" USING btree ("ad_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "media_one_cover_per_ad_idx" ON "media" USING btree ("ad_id") WHERE "media"."is_cover";