ALTER TABLE "model_consents" ADD COLUMN "code_attempts" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "model_consents" ADD COLUMN "code_token_hash" char(64);--> statement-breakpoint
CREATE INDEX "model_consents_contact_idx" ON "model_consents" USING btree ("contact");--> statement-breakpoint
ALTER TABLE "model_consents" ADD CONSTRAINT "model_consents_code_token_hash_unique" UNIQUE("code_token_hash");