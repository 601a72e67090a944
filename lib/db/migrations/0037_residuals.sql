CREATE TABLE "residual_lines" (
	"residual_id" text NOT NULL,
	"position" integer NOT NULL,
	"merchant_id" text NOT NULL,
	"volume" bigint NOT NULL,
	"count" integer NOT NULL,
	"merchant_fees" bigint NOT NULL,
	"costs" bigint NOT NULL,
	"margin" bigint NOT NULL,
	"share" bigint NOT NULL,
	"platform_fees" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "residual_lines_residual_id_position_pk" PRIMARY KEY("residual_id","position")
);
--> statement-breakpoint
CREATE TABLE "residuals" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"period" text NOT NULL,
	"volume" bigint NOT NULL,
	"count" integer NOT NULL,
	"merchant_fees" bigint NOT NULL,
	"costs" bigint NOT NULL,
	"margin" bigint NOT NULL,
	"revenue_share_percent" integer NOT NULL,
	"share" bigint NOT NULL,
	"platform_fees" bigint NOT NULL,
	"adjustments" bigint DEFAULT 0 NOT NULL,
	"carried_in" bigint DEFAULT 0 NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"payout_id" text,
	"line_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "residuals_carried_in_not_positive" CHECK ("residuals"."carried_in" <= 0)
);
--> statement-breakpoint
ALTER TABLE "residual_lines" ADD CONSTRAINT "residual_lines_residual_id_residuals_id_fk" FOREIGN KEY ("residual_id") REFERENCES "public"."residuals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "residual_lines_merchant_key" ON "residual_lines" USING btree ("residual_id","merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "residuals_seq_key" ON "residuals" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "residuals_isv_period_key" ON "residuals" USING btree ("isv_account_id","period");--> statement-breakpoint
CREATE INDEX "residuals_isv_seq_idx" ON "residuals" USING btree ("isv_account_id","seq");