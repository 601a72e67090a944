ALTER TABLE "charges" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "declined_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "charges_declined_fingerprint_idx" ON "charges" USING btree ("card_fingerprint","created_at") WHERE "charges"."status" = 'FAILED';--> statement-breakpoint
CREATE INDEX "charges_declined_address_idx" ON "charges" USING btree ("isv_account_id","client_address","created_at") WHERE "charges"."status" = 'FAILED' and "charges"."client_address" is not null;