CREATE TABLE "payout_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"vault" jsonb NOT NULL,
	"usable_from" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "payout_cards_expiry" CHECK ("payout_cards"."exp_month" between 1 and 12)
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "payout_card_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payout_cards" ADD CONSTRAINT "payout_cards_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_cards_merchant_idx" ON "payout_cards" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_cards_one_active_key" ON "payout_cards" USING btree ("merchant_id") WHERE "payout_cards"."removed_at" is null;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_payout_card_id_payout_cards_id_fk" FOREIGN KEY ("payout_card_id") REFERENCES "public"."payout_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_card" CHECK ((coalesce("payouts"."rail", '') = 'push_to_card') = ("payouts"."payout_card_id" is not null)
        and ("payouts"."payout_card_id" is null) = ("payouts"."card_last4" is null) and ("payouts"."payout_card_id" is null) = ("payouts"."card_brand" is null));