ALTER TABLE "charges" ADD COLUMN "platform_fee" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "platform_fee_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "platform_fee" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "platform_fee_refund" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "platform_fees" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "platform_fees" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_platform_fee_refunded_within_fee" CHECK ("charges"."platform_fee_refunded" >= 0 and "charges"."platform_fee_refunded" <= coalesce("charges"."platform_fee", 0));