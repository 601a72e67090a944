CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"posting_id" text NOT NULL,
	"account" text NOT NULL,
	"owner_id" text,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"isv_account_id" text NOT NULL,
	"merchant_id" text,
	"type" text NOT NULL,
	"source_id" text NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"net" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"description" text NOT NULL,
	"available_on" text NOT NULL,
	"settlement_id" text,
	"payout_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_postings_net" CHECK ("ledger_postings"."net" = "ledger_postings"."amount" - "ledger_postings"."fee")
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_posting_id_ledger_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."ledger_postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_posting_idx" ON "ledger_entries" USING btree ("posting_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_balance_idx" ON "ledger_entries" USING btree ("owner_id","account","amount");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_postings_seq_key" ON "ledger_postings" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "ledger_postings_merchant_seq_idx" ON "ledger_postings" USING btree ("merchant_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_postings_isv_seq_idx" ON "ledger_postings" USING btree ("isv_account_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_postings_source_idx" ON "ledger_postings" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_settlement_idx" ON "ledger_postings" USING btree ("settlement_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_payout_idx" ON "ledger_postings" USING btree ("payout_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_unsettled_idx" ON "ledger_postings" USING btree ("merchant_id") WHERE "ledger_postings"."settlement_id" is null;--> statement-breakpoint
CREATE FUNCTION "ledger_entries_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE unbalanced text;
BEGIN
  SELECT posting_id INTO unbalanced FROM new_entries GROUP BY posting_id HAVING sum(amount) <> 0 LIMIT 1;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger posting % does not sum to zero', unbalanced USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries" REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entries_balanced"();
--> statement-breakpoint
CREATE FUNCTION "ledger_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % is refused (a correction is a new posting)', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_immutable" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_immutable"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_immutable"();
--> statement-breakpoint
CREATE TRIGGER "ledger_postings_no_delete" BEFORE DELETE ON "ledger_postings" FOR EACH ROW EXECUTE FUNCTION "ledger_immutable"();
--> statement-breakpoint
CREATE TRIGGER "ledger_postings_no_truncate" BEFORE TRUNCATE ON "ledger_postings" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_immutable"();
--> statement-breakpoint
CREATE FUNCTION "ledger_postings_written_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.isv_account_id, NEW.merchant_id, NEW.type, NEW.source_id, NEW.amount, NEW.fee, NEW.net, NEW.currency, NEW.created_at)
       IS DISTINCT FROM (OLD.id, OLD.isv_account_id, OLD.merchant_id, OLD.type, OLD.source_id, OLD.amount, OLD.fee, OLD.net, OLD.currency, OLD.created_at)
     OR (OLD.settlement_id IS NOT NULL AND NEW.settlement_id IS DISTINCT FROM OLD.settlement_id)
     OR (OLD.payout_id IS NOT NULL AND NEW.payout_id IS DISTINCT FROM OLD.payout_id) THEN
    RAISE EXCEPTION 'ledger posting %: what it moved, and the settlement and payout that took it, are written once', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_postings_written_once" BEFORE UPDATE ON "ledger_postings" FOR EACH ROW EXECUTE FUNCTION "ledger_postings_written_once"();
