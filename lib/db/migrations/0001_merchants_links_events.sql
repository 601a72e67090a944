CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"lead_id" bigserial NOT NULL,
	"phone" text NOT NULL,
	"agent" integer,
	"lead_onboarding_status" text NOT NULL,
	"automatic_payouts" boolean DEFAULT true NOT NULL,
	"deactivated" boolean DEFAULT false NOT NULL,
	"application" jsonb NOT NULL,
	"default_capabilities" jsonb NOT NULL,
	"requirements" jsonb,
	"payment" jsonb NOT NULL,
	"payment_keys" jsonb,
	"device_selection" text,
	"device_id" text,
	"device_imei" text,
	"device_catalog_id" text,
	"device_imei_status" text,
	"device_created_at" timestamp with time zone,
	"device_updated_at" timestamp with time zone,
	"agreement" jsonb,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onboarding_links" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"token_digest" text NOT NULL,
	"return_url" text,
	"refresh_url" text,
	"state" text,
	"allow_skip_device_selection" boolean,
	"expires_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"first_opened_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"object_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_isv_account_id_accounts_id_fk" FOREIGN KEY ("isv_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_links" ADD CONSTRAINT "onboarding_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_lead_id_key" ON "merchants" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "merchants_isv_lead_idx" ON "merchants" USING btree ("isv_account_id","lead_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_isv_imei_key" ON "merchants" USING btree ("isv_account_id","device_imei") WHERE "merchants"."device_imei" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_links_token_key" ON "onboarding_links" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "onboarding_links_merchant_idx" ON "onboarding_links" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "events_account_seq_idx" ON "events" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "events_object_idx" ON "events" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "jobs_ready_idx" ON "jobs" USING btree ("status","run_at");