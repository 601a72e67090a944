CREATE TABLE "processor_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"processor" text NOT NULL,
	"amount" integer NOT NULL,
	"subject_id" text NOT NULL,
	"status" text NOT NULL,
	"outcome" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE INDEX "processor_calls_subject_idx" ON "processor_calls" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "processor_calls_started_idx" ON "processor_calls" USING btree ("created_at") WHERE "processor_calls"."status" = 'started';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_request_key" ON "refunds" USING btree ("request_key");