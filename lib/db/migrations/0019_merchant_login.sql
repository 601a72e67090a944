CREATE TABLE "merchant_login_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"token_digest" text NOT NULL,
	"via" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchant_login_tokens" ADD CONSTRAINT "merchant_login_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_login_tokens_token_key" ON "merchant_login_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "merchant_login_tokens_merchant_idx" ON "merchant_login_tokens" USING btree ("merchant_id","created_at");