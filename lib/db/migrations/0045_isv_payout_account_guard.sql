CREATE TABLE "account_change_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"user_id" text NOT NULL,
	"token_digest" text NOT NULL,
	"last4" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payouts_frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "home_session_id" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "change_reports_valid_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_payouts" ADD COLUMN "destination" jsonb;--> statement-breakpoint
ALTER TABLE "account_change_reports" ADD CONSTRAINT "account_change_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_change_reports" ADD CONSTRAINT "account_change_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_change_reports_token_key" ON "account_change_reports" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "account_change_reports_account_idx" ON "account_change_reports" USING btree ("account_id");