CREATE TABLE "disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"charge_id" text NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"settlement_id" text,
	"won_settlement_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_amount_positive" CHECK ("disputes"."amount" > 0),
	CONSTRAINT "disputes_fee_not_negative" CHECK ("disputes"."fee" >= 0),
	CONSTRAINT "disputes_closed_at" CHECK (("disputes"."status" in ('won', 'lost')) = ("disputes"."closed_at" is not null)),
	CONSTRAINT "disputes_won_settlement" CHECK ("disputes"."won_settlement_id" is null or "disputes"."status" = 'won')
);
--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "dispute_id" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "dispute_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "disputes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "dispute_fees" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "dispute_won_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "disputes_won" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "disputes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_seq_key" ON "disputes" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_charge_key" ON "disputes" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "disputes_isv_seq_idx" ON "disputes" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "disputes_merchant_idx" ON "disputes" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE INDEX "disputes_unsettled_idx" ON "disputes" USING btree ("merchant_id") WHERE "disputes"."settlement_id" is null;--> statement-breakpoint
CREATE INDEX "disputes_won_unsettled_idx" ON "disputes" USING btree ("merchant_id") WHERE "disputes"."status" = 'won' and "disputes"."won_settlement_id" is null;--> statement-breakpoint
CREATE INDEX "disputes_open_due_idx" ON "disputes" USING btree ("evidence_due_by") WHERE "disputes"."status" = 'needs_response';