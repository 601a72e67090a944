DROP INDEX "ledger_postings_unpaid_idx";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "fee" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "fee_markup" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rail" text;--> statement-breakpoint
CREATE INDEX "ledger_postings_unpaid_idx" ON "ledger_postings" USING btree ("merchant_id") WHERE "ledger_postings"."payout_id" is null and (("ledger_postings"."settlement_id" is not null and "ledger_postings"."type" not in ('payout_failure', 'payout', 'settlement', 'funding', 'payout_paid')) or "ledger_postings"."type" in ('payout', 'reserve_hold', 'reserve_release', 'instant_payout_fee'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_instant" CHECK (("payouts"."method" = 'instant') = ("payouts"."rail" is not null) and ("payouts"."method" = 'instant') = ("payouts"."fee" is not null)
        and coalesce("payouts"."fee_markup" between 0 and "payouts"."fee", "payouts"."fee" is null));