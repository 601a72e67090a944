CREATE TABLE "ledger_balance_checkpoints" (
	"owner_id" text NOT NULL,
	"account" text NOT NULL,
	"through_entry_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_balance_checkpoints_owner_id_account_pk" PRIMARY KEY("owner_id","account")
);
--> statement-breakpoint
DROP INDEX "ledger_entries_balance_idx";--> statement-breakpoint
CREATE INDEX "ledger_entries_owner_account_idx" ON "ledger_entries" USING btree ("owner_id","account","id","amount");