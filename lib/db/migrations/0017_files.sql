CREATE TABLE "file_contents" (
	"file_id" text PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"purpose" text NOT NULL,
	"subject" text,
	"filename" text NOT NULL,
	"size" integer NOT NULL,
	"type" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_type_check" CHECK ("files"."type" in ('jpg', 'png', 'pdf')),
	CONSTRAINT "files_size_check" CHECK ("files"."size" > 0 and "files"."size" <= 10485760)
);
--> statement-breakpoint
ALTER TABLE "file_contents" ADD CONSTRAINT "file_contents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_seq_key" ON "files" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "files_merchant_sha256_key" ON "files" USING btree ("merchant_id","sha256");--> statement-breakpoint
CREATE INDEX "files_merchant_idx" ON "files" USING btree ("merchant_id","seq");