CREATE TABLE "card_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"funding" text NOT NULL,
	"fingerprint" text NOT NULL,
	"vault" jsonb NOT NULL,
	"used_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"payment_request_id" text NOT NULL,
	"payment_type" text NOT NULL,
	"status" text NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"requested_amount" integer NOT NULL,
	"amount_authorized" integer NOT NULL,
	"amount_captured" integer NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"tip" integer NOT NULL,
	"tax" integer NOT NULL,
	"card_brand" text,
	"card_last_4" text,
	"card_expiration_date" text,
	"card_type" text,
	"card_fingerprint" text,
	"card_entry_method" text NOT NULL,
	"billing_address" jsonb,
	"failure_reason" text,
	"processor_reference" text,
	"receipt_number" text NOT NULL,
	"fee" integer,
	"net" integer,
	"fee_details" jsonb,
	"settlement_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"authorized_at" timestamp with time zone,
	"captured_at" timestamp with time zone,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"payment_type" text NOT NULL,
	"status" text NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"amount" integer NOT NULL,
	"tax" integer NOT NULL,
	"tip" integer NOT NULL,
	"items" jsonb,
	"tax_percent" text,
	"email_address" text,
	"phone_number" text,
	"description" text,
	"terminal_id" text,
	"signature_required" boolean,
	"debit" boolean,
	"send_via" text,
	"sent_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"charge_id" text,
	"last_failure_reason" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"expired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD CONSTRAINT "card_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_payment_request_id_payment_requests_id_fk" FOREIGN KEY ("payment_request_id") REFERENCES "public"."payment_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_tokens_expires_idx" ON "card_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_seq_key" ON "charges" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "charges_isv_seq_idx" ON "charges" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "charges_merchant_seq_idx" ON "charges" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_one_success_per_request_key" ON "charges" USING btree ("payment_request_id") WHERE "charges"."status" <> 'FAILED';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_requests_seq_key" ON "payment_requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "payment_requests_isv_seq_idx" ON "payment_requests" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "payment_requests_merchant_seq_idx" ON "payment_requests" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_requests_open_terminal_key" ON "payment_requests" USING btree ("terminal_id") WHERE "payment_requests"."status" = 'PENDING' and "payment_requests"."terminal_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_tokenizer_key" ON "merchants" USING btree (("payment"->>'tokenizer_publishable_key'));