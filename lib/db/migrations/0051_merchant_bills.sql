CREATE TABLE "merchant_bills" (
	"id" text PRIMARY KEY NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"period" text NOT NULL,
	"lines" jsonb NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchant_bills" ADD CONSTRAINT "merchant_bills_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_bills_merchant_period_key" ON "merchant_bills" USING btree ("merchant_id","period");--> statement-breakpoint
-- Every final statement made so far posted its month-end fees itself, with its own id as their
-- source: each becomes its period's bill (same id, its ACH activity and monthly fee lines).
INSERT INTO "merchant_bills" ("id", "isv_account_id", "merchant_id", "period", "lines", "total", "created_at")
  SELECT s."id", s."isv_account_id", s."merchant_id", s."period",
         coalesce((SELECT jsonb_agg(l ORDER BY o) FROM jsonb_array_elements(s."fee_lines") WITH ORDINALITY AS e(l, o)
                   WHERE l->>'kind' IN ('ach_activity', 'monthly')), '[]'::jsonb),
         coalesce((SELECT sum((l->>'amount')::int) FROM jsonb_array_elements(s."fee_lines") l
                   WHERE l->>'kind' IN ('ach_activity', 'monthly')), 0),
         s."created_at"
  FROM "statements" s WHERE s."final";
