DROP INDEX "accounts_custom_domain_key";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom_domain_token" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom_domain_verified_at" timestamp with time zone;--> statement-breakpoint
-- Domains set before verification existed were unique and already served: they keep serving.
UPDATE "accounts" SET "custom_domain_verified_at" = now(), "custom_domain_token" = md5(random()::text || "id") WHERE "custom_domain" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_verified_custom_domain_key" ON "accounts" USING btree ("custom_domain") WHERE "accounts"."custom_domain_verified_at" is not null;