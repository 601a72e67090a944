ALTER TABLE "charges" ADD COLUMN "return_reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "reversal_settlement_id" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "reversal_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "reversals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "reversal_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "reversals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "charges_unsettled_reversals_idx" ON "charges" USING btree ("merchant_id") WHERE "charges"."return_reversed_at" is not null and "charges"."return_settlement_id" is not null and "charges"."reversal_settlement_id" is null;