CREATE TABLE "user_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_sessions_user_idx" ON "user_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_sessions_expires_idx" ON "user_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "processor_calls_subject_idx" ON "processor_calls" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "processor_calls_started_idx" ON "processor_calls" USING btree ("created_at") WHERE "processor_calls"."status" = 'started';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_request_key" ON "refunds" USING btree ("request_key");