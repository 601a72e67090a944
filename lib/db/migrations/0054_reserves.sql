CREATE TABLE "reserves" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"type" text NOT NULL,
	"percent_bps" integer,
	"hold_days" integer,
	"amount" integer,
	"release_on" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "reserves_terms" CHECK (("reserves"."type" = 'rolling' and "reserves"."percent_bps" between 1 and 10000 and "reserves"."hold_days" between 1 and 365 and "reserves"."amount" is null and "reserves"."release_on" is null)
        or ("reserves"."type" = 'fixed' and "reserves"."amount" > 0 and "reserves"."percent_bps" is null and "reserves"."hold_days" is null)),
	CONSTRAINT "reserves_released" CHECK (("reserves"."status" = 'released') = ("reserves"."released_at" is not null))
);
--> statement-breakpoint
DROP INDEX "ledger_postings_unpaid_idx";--> statement-breakpoint
CREATE INDEX "reserves_merchant_idx" ON "reserves" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "reserves_active_idx" ON "reserves" USING btree ("merchant_id") WHERE "reserves"."status" = 'active';--> statement-breakpoint
CREATE INDEX "ledger_postings_unpaid_idx" ON "ledger_postings" USING btree ("merchant_id") WHERE "ledger_postings"."payout_id" is null and (("ledger_postings"."settlement_id" is not null and "ledger_postings"."type" not in ('payout_failure', 'payout', 'settlement', 'funding', 'payout_paid')) or "ledger_postings"."type" in ('payout', 'reserve_hold', 'reserve_release'));