ALTER TABLE "card_tokens" ALTER COLUMN "brand" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ALTER COLUMN "exp_month" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ALTER COLUMN "exp_year" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ALTER COLUMN "funding" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD COLUMN "kind" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD COLUMN "bank_name" text;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD COLUMN "account_type" text;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD COLUMN "routing_number" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "ach" jsonb;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "return_settlement_id" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "return_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "returns" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "return_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "returns" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "charges_unsettled_returns_idx" ON "charges" USING btree ("merchant_id") WHERE "charges"."status" = 'RETURNED' and "charges"."return_settlement_id" is null;