ALTER TABLE "files" ADD COLUMN "original_sha256" text;--> statement-breakpoint
CREATE INDEX "files_merchant_original_idx" ON "files" USING btree ("merchant_id","original_sha256");