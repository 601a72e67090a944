DROP INDEX "files_merchant_sha256_key";--> statement-breakpoint
DROP INDEX "files_merchant_original_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "files_merchant_purpose_sha256_key" ON "files" USING btree ("merchant_id","purpose","sha256");--> statement-breakpoint
CREATE INDEX "files_merchant_original_idx" ON "files" USING btree ("merchant_id","purpose","original_sha256");