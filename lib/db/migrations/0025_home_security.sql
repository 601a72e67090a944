CREATE TABLE "merchant_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"via" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "bank_account_hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "payouts_frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "pending_contact_email" jsonb;--> statement-breakpoint
ALTER TABLE "merchant_sessions" ADD CONSTRAINT "merchant_sessions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merchant_sessions_merchant_idx" ON "merchant_sessions" USING btree ("merchant_id","created_at");