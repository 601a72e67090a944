CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"amount" integer,
	"items" jsonb,
	"min_amount" integer,
	"max_amount" integer,
	"description" text,
	"max_uses" integer,
	"paid_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_links_one_amount" CHECK ((case when "payment_links"."amount" is not null then 1 else 0 end) + (case when "payment_links"."items" is not null then 1 else 0 end) + (case when "payment_links"."min_amount" is not null then 1 else 0 end) = 1)
);
--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "payment_link_id" text;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_links_isv_seq_idx" ON "payment_links" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "payment_links_merchant_seq_idx" ON "payment_links" USING btree ("merchant_id","seq");