ALTER TABLE "disputes" ADD COLUMN "costs" integer;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "margin" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "return_costs" integer;