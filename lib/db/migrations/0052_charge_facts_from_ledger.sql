DROP INDEX "charges_settlement_idx";--> statement-breakpoint
ALTER TABLE "charges" DROP COLUMN "net";--> statement-breakpoint
ALTER TABLE "charges" DROP COLUMN "settlement_id";