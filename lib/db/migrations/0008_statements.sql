CREATE TABLE "statements" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"period" text NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"charge_count" integer NOT NULL,
	"refund_count" integer NOT NULL,
	"gross_volume" integer NOT NULL,
	"refunds" integer NOT NULL,
	"fees" integer NOT NULL,
	"net" integer NOT NULL,
	"fee_lines" jsonb NOT NULL,
	"card_brands" jsonb NOT NULL,
	"daily_totals" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statements_seq_key" ON "statements" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "statements_merchant_period_key" ON "statements" USING btree ("merchant_id","period");--> statement-breakpoint
CREATE INDEX "statements_isv_idx" ON "statements" USING btree ("isv_account_id","seq");