CREATE TABLE "account_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"components" jsonb NOT NULL,
	"secret_digest" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"exchanged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_sessions" ADD CONSTRAINT "account_sessions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_sessions_secret_key" ON "account_sessions" USING btree ("secret_digest");--> statement-breakpoint
CREATE INDEX "account_sessions_merchant_idx" ON "account_sessions" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "account_sessions_expires_idx" ON "account_sessions" USING btree ("expires_at");