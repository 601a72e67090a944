CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text,
	"type" text NOT NULL,
	"interval_start" timestamp with time zone NOT NULL,
	"interval_end" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"failure_message" text,
	"row_count" integer,
	"csv" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "reports_interval" CHECK ("reports"."interval_start" < "reports"."interval_end"),
	CONSTRAINT "reports_succeeded_csv" CHECK (("reports"."status" = 'succeeded') = ("reports"."csv" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reports_seq_key" ON "reports" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "reports_isv_seq_idx" ON "reports" USING btree ("isv_account_id","seq");