ALTER TABLE "accounts" ADD COLUMN "cost_profile" jsonb;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "costs" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "cost_details" jsonb;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "margin" integer;