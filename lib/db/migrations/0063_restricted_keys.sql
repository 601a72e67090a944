ALTER TABLE "api_keys" ADD COLUMN "name" text DEFAULT 'Standard key' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;