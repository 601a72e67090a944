CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"settlement_id" text NOT NULL,
	"replaces" text,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text NOT NULL,
	"held_reason" text,
	"failure_code" text,
	"arrival_date" text,
	"bank_last4" text,
	"bank_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount" > 0),
	CONSTRAINT "payouts_held_reason" CHECK (("payouts"."status" = 'held') = ("payouts"."held_reason" is not null)),
	CONSTRAINT "payouts_failure_code" CHECK (("payouts"."status" = 'failed') = ("payouts"."failure_code" is not null))
);
--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "carried_in" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_seq_key" ON "payouts" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "payouts_isv_seq_idx" ON "payouts" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "payouts_merchant_idx" ON "payouts" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_settlement_first_key" ON "payouts" USING btree ("settlement_id") WHERE "payouts"."replaces" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_replaces_key" ON "payouts" USING btree ("replaces");