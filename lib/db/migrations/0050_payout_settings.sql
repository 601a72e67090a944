CREATE TABLE "payout_settings" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"automatic" boolean DEFAULT true NOT NULL,
	"frozen_at" timestamp with time zone,
	"bank_account_hold_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_settings_recipient" CHECK ("payout_settings"."recipient" in ('merchant', 'account')),
	CONSTRAINT "payout_settings_account_fields" CHECK ("payout_settings"."recipient" = 'merchant' or ("payout_settings"."automatic" and "payout_settings"."bank_account_hold_until" is null))
);
--> statement-breakpoint
-- Every merchant's and every ISV's payout settings, as their rows held them.
INSERT INTO "payout_settings" ("owner_id", "recipient", "automatic", "frozen_at", "bank_account_hold_until", "updated_at")
  SELECT "id", 'merchant', "automatic_payouts", "payouts_frozen_at", "bank_account_hold_until", now() FROM "merchants";--> statement-breakpoint
INSERT INTO "payout_settings" ("owner_id", "recipient", "automatic", "frozen_at", "bank_account_hold_until", "updated_at")
  SELECT "id", 'account', true, "payouts_frozen_at", null, now() FROM "accounts";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "payouts_frozen_at";--> statement-breakpoint
ALTER TABLE "merchants" DROP COLUMN "automatic_payouts";--> statement-breakpoint
ALTER TABLE "merchants" DROP COLUMN "bank_account_hold_until";--> statement-breakpoint
ALTER TABLE "merchants" DROP COLUMN "payouts_frozen_at";