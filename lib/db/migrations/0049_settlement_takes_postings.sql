ALTER TABLE "disputes" DROP CONSTRAINT "disputes_won_settlement";--> statement-breakpoint
DROP INDEX "disputes_unsettled_idx";--> statement-breakpoint
DROP INDEX "disputes_won_unsettled_idx";--> statement-breakpoint
DROP INDEX "ledger_postings_unsettled_idx";--> statement-breakpoint
DROP INDEX "charges_unsettled_returns_idx";--> statement-breakpoint
DROP INDEX "charges_unsettled_reversals_idx";--> statement-breakpoint
DROP INDEX "refunds_unsettled_idx";--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD COLUMN "moves_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A settlement takes the postings through the merchant's pending money (not six columns on the objects): which those are, from the entries already written.
UPDATE "ledger_postings" p SET "moves_pending" = true
  WHERE p."merchant_id" IS NOT NULL
    AND EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."posting_id" = p."id" AND e."account" = 'pending' AND e."owner_id" = p."merchant_id");--> statement-breakpoint
-- What a posting moved never changes, the fact that it moved pending money included.
CREATE OR REPLACE FUNCTION "ledger_postings_written_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.isv_account_id, NEW.merchant_id, NEW.type, NEW.source_id, NEW.amount, NEW.fee, NEW.net, NEW.currency, NEW.created_at, NEW.moves_pending)
       IS DISTINCT FROM (OLD.id, OLD.isv_account_id, OLD.merchant_id, OLD.type, OLD.source_id, OLD.amount, OLD.fee, OLD.net, OLD.currency, OLD.created_at, OLD.moves_pending)
     OR (OLD.settlement_id IS NOT NULL AND NEW.settlement_id IS DISTINCT FROM OLD.settlement_id)
     OR (OLD.payout_id IS NOT NULL AND NEW.payout_id IS DISTINCT FROM OLD.payout_id) THEN
    RAISE EXCEPTION 'ledger posting %: what it moved, and the settlement and payout that took it, are written once', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE INDEX "ledger_postings_untaken_idx" ON "ledger_postings" USING btree ("merchant_id","created_at") WHERE "ledger_postings"."settlement_id" is null and "ledger_postings"."moves_pending";--> statement-breakpoint
ALTER TABLE "disputes" DROP COLUMN "settlement_id";--> statement-breakpoint
ALTER TABLE "disputes" DROP COLUMN "won_settlement_id";--> statement-breakpoint
ALTER TABLE "charges" DROP COLUMN "return_settlement_id";--> statement-breakpoint
ALTER TABLE "charges" DROP COLUMN "reversal_settlement_id";--> statement-breakpoint
ALTER TABLE "refunds" DROP COLUMN "settlement_id";