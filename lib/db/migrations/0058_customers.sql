CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"type" text NOT NULL,
	"brand" text,
	"last4" text NOT NULL,
	"exp_month" integer,
	"exp_year" integer,
	"funding" text,
	"bank_name" text,
	"account_type" text,
	"routing_number" text,
	"fingerprint" text NOT NULL,
	"vault" jsonb NOT NULL,
	"consent" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detached_at" timestamp with time zone,
	CONSTRAINT "payment_methods_card" CHECK ("payment_methods"."type" <> 'card' or ("payment_methods"."brand" is not null and "payment_methods"."exp_month" between 1 and 12 and "payment_methods"."exp_year" is not null))
);
--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "saved_method_id" text;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_seq_key" ON "customers" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "customers_isv_seq_idx" ON "customers" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "customers_merchant_seq_idx" ON "customers" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE INDEX "customers_merchant_email_idx" ON "customers" USING btree ("merchant_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_seq_key" ON "payment_methods" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "payment_methods_customer_seq_idx" ON "payment_methods" USING btree ("customer_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_customer_fingerprint_key" ON "payment_methods" USING btree ("customer_id","fingerprint") WHERE "payment_methods"."detached_at" is null;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_saved_method_id_payment_methods_id_fk" FOREIGN KEY ("saved_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD CONSTRAINT "payment_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;