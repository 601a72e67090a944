CREATE TABLE "account_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"residual_id" text NOT NULL,
	"replaces" text,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text NOT NULL,
	"failure_code" text,
	"arrival_date" text,
	"bank_last4" text,
	"bank_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_payouts_amount_positive" CHECK ("account_payouts"."amount" > 0),
	CONSTRAINT "account_payouts_failure_code" CHECK (("account_payouts"."status" = 'failed') = ("account_payouts"."failure_code" is not null)),
	CONSTRAINT "account_payouts_not_held" CHECK ("account_payouts"."status" <> 'held')
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payout_bank_account" jsonb;--> statement-breakpoint
ALTER TABLE "account_payouts" ADD CONSTRAINT "account_payouts_residual_id_residuals_id_fk" FOREIGN KEY ("residual_id") REFERENCES "public"."residuals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_payouts_seq_key" ON "account_payouts" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "account_payouts_isv_seq_idx" ON "account_payouts" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "account_payouts_residual_first_key" ON "account_payouts" USING btree ("residual_id") WHERE "account_payouts"."replaces" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "account_payouts_replaces_key" ON "account_payouts" USING btree ("replaces");