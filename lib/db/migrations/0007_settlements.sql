CREATE TABLE "settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"charge_count" integer NOT NULL,
	"refund_count" integer NOT NULL,
	"gross" integer NOT NULL,
	"refunds" integer NOT NULL,
	"fees" integer NOT NULL,
	"net" integer NOT NULL,
	"payout_status" text NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "settlement_id" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_seq_key" ON "settlements" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "settlements_isv_seq_idx" ON "settlements" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "settlements_merchant_idx" ON "settlements" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE INDEX "charges_settlement_idx" ON "charges" USING btree ("settlement_id","seq");--> statement-breakpoint
CREATE INDEX "charges_authorized_idx" ON "charges" USING btree ("merchant_id") WHERE "charges"."status" = 'AUTHORIZED';--> statement-breakpoint
CREATE INDEX "refunds_unsettled_idx" ON "refunds" USING btree ("merchant_id") WHERE "refunds"."settlement_id" is null;