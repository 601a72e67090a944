CREATE TABLE "risk_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"rule" text NOT NULL,
	"period" text NOT NULL,
	"figures" jsonb NOT NULL,
	"action" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reserve_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
ALTER TABLE "payout_settings" ADD COLUMN "risk_paused_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "risk_alerts_once_key" ON "risk_alerts" USING btree ("merchant_id","rule","period");--> statement-breakpoint
CREATE INDEX "risk_alerts_isv_idx" ON "risk_alerts" USING btree ("isv_account_id","created_at");