CREATE TABLE "test_clocks" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"name" text,
	"frozen_time" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"advancing_to" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"test_clock_id" text,
	"status" text NOT NULL,
	"items" jsonb NOT NULL,
	"amount" integer NOT NULL,
	"description" text,
	"interval" text NOT NULL,
	"interval_count" integer NOT NULL,
	"billing_cycle_anchor" timestamp with time zone NOT NULL,
	"period_index" integer NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"trial_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"latest_invoice_id" text,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"first_failed_at" timestamp with time zone,
	"last_decline_code" text,
	"last_declined_method_id" text,
	"next_action_at" timestamp with time zone,
	"recovered_amount" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "subscriptions_amount" CHECK ("subscriptions"."amount" > 0),
	CONSTRAINT "subscriptions_interval_count" CHECK ("subscriptions"."interval_count" >= 1)
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "test_clock_id" text;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "subscription_period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_test_clock_id_test_clocks_id_fk" FOREIGN KEY ("test_clock_id") REFERENCES "public"."test_clocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_clocks_isv_seq_idx" ON "test_clocks" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "subscriptions_isv_seq_idx" ON "subscriptions" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "subscriptions_merchant_seq_idx" ON "subscriptions" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_clock_due_idx" ON "subscriptions" USING btree ("test_clock_id","next_action_at");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_test_clock_id_test_clocks_id_fk" FOREIGN KEY ("test_clock_id") REFERENCES "public"."test_clocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_requests_subscription_period_key" ON "payment_requests" USING btree ("subscription_id","subscription_period_start") WHERE "payment_requests"."subscription_id" is not null;