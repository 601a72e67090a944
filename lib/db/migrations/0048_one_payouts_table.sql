ALTER TABLE "payouts" ALTER COLUMN "merchant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "settlement_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "recipient" text DEFAULT 'merchant' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "residual_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "destination" jsonb;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_residual_id_residuals_id_fk" FOREIGN KEY ("residual_id") REFERENCES "public"."residuals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_residual_first_key" ON "payouts" USING btree ("residual_id") WHERE "payouts"."replaces" is null;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_recipient" CHECK (case when "payouts"."recipient" = 'merchant' then "payouts"."merchant_id" is not null and "payouts"."settlement_id" is not null and "payouts"."residual_id" is null
        else "payouts"."merchant_id" is null and "payouts"."settlement_id" is null and "payouts"."residual_id" is not null and "payouts"."status" <> 'held' end);--> statement-breakpoint
-- The ISV's payouts join the merchants' (one table, one machine): the same ids, in their order.
INSERT INTO "payouts" ("id", "isv_account_id", "recipient", "residual_id", "replaces", "amount", "currency", "status", "failure_code", "arrival_date", "bank_last4", "bank_name", "destination", "created_at", "updated_at")
  SELECT "id", "isv_account_id", 'account', "residual_id", "replaces", "amount", "currency", "status", "failure_code", "arrival_date", "bank_last4", "bank_name", "destination", "created_at", "updated_at"
  FROM "account_payouts" ORDER BY "seq";--> statement-breakpoint
ALTER TABLE "account_payouts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "account_payouts" CASCADE;
