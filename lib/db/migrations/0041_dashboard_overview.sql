ALTER TABLE "merchants" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "disputes_isv_created_idx" ON "disputes" USING btree ("isv_account_id","created_at");--> statement-breakpoint
CREATE INDEX "merchants_isv_created_idx" ON "merchants" USING btree ("isv_account_id","created_at");--> statement-breakpoint
CREATE INDEX "merchants_isv_submitted_idx" ON "merchants" USING btree ("isv_account_id","submitted_at");--> statement-breakpoint
CREATE INDEX "merchants_isv_approved_idx" ON "merchants" USING btree ("isv_account_id","approved_at");--> statement-breakpoint
CREATE INDEX "onboarding_links_isv_opened_idx" ON "onboarding_links" USING btree ("isv_account_id","first_opened_at");--> statement-breakpoint
CREATE INDEX "charges_isv_created_idx" ON "charges" USING btree ("isv_account_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_isv_created_idx" ON "refunds" USING btree ("isv_account_id","created_at");--> statement-breakpoint
-- The merchants approved before this column: approved when their last decision says (else when last changed).
UPDATE "merchants" SET "approved_at" = coalesce(("underwriting"->>'decided_at')::timestamptz, "updated_at") WHERE "lead_onboarding_status" = 'APPROVED' AND "approved_at" IS NULL;
