ALTER TABLE "payouts" DROP CONSTRAINT "payouts_recipient";--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "interval" text DEFAULT 'daily' NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "weekly_anchor" text;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "monthly_anchor" integer;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "delay_days" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "minimum_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "automatic" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "method" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_postings_unpaid_idx" ON "ledger_postings" USING btree ("merchant_id") WHERE "ledger_postings"."payout_id" is null and (("ledger_postings"."settlement_id" is not null and "ledger_postings"."type" not in ('payout_failure', 'payout', 'settlement', 'funding', 'payout_paid')) or "ledger_postings"."type" = 'payout');--> statement-breakpoint
ALTER TABLE "payout_settings" ADD CONSTRAINT "payout_settings_schedule" CHECK (("payout_settings"."interval" = 'weekly') = ("payout_settings"."weekly_anchor" is not null)
        and ("payout_settings"."interval" = 'monthly') = ("payout_settings"."monthly_anchor" is not null)
        and coalesce("payout_settings"."monthly_anchor" between 1 and 31, true)
        and "payout_settings"."delay_days" between 1 and 7 and "payout_settings"."minimum_amount" >= 0);--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_recipient" CHECK (case when "payouts"."recipient" = 'merchant' then "payouts"."merchant_id" is not null and "payouts"."residual_id" is null
        else "payouts"."merchant_id" is null and "payouts"."settlement_id" is null and "payouts"."residual_id" is not null and "payouts"."status" <> 'held' end);