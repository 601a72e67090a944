-- The ledger for what a database made before 0029 holds (docs/reference.md section 18): the postings
-- each charge, refund, ACH return and reversal, dispute, settlement and payout would have written,
-- with the settlement and the payout that took them, so balances, settlements and payouts read the
-- same after it. On a new database every SELECT below is empty: nothing is written; an object that
-- has its posting already gets none again (tests/api/ledger-backfill.test.ts runs it twice).
CREATE FUNCTION "pg_temp"."ledger_day_after_settlement"(at timestamptz) RETURNS text LANGUAGE sql AS $$
  -- The settlement's day (the next UTC day), then the next weekday (a holiday is not skipped here).
  SELECT to_char(d + CASE extract(isodow FROM d) WHEN 5 THEN 3 WHEN 6 THEN 2 ELSE 1 END, 'YYYY-MM-DD')
  FROM (SELECT (at AT TIME ZONE 'UTC')::date + 1 AS d) x
$$;
--> statement-breakpoint
CREATE TEMP TABLE "ledger_backfill" (
  "id" text PRIMARY KEY, "isv_account_id" text, "merchant_id" text, "type" text, "source_id" text,
  "amount" integer, "fee" integer, "description" text, "settlement_id" text, "payout_id" text,
  "created_at" timestamptz, "seq" bigserial,
  "debit_account" text, "credit_account" text, "fee_account" text
);
--> statement-breakpoint
-- Charges: clearing −A, pending +(A − F), processing_revenue +F.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account", "fee_account")
SELECT 'txn_' || substr(md5(random()::text || c.id), 1, 22), c.isv_account_id, c.merchant_id, 'charge', c.id, c.amount_captured, coalesce(c.fee, 0),
       CASE WHEN c.payment_method = 'ach' THEN 'Payment by bank account •••• ' || coalesce(c.ach->>'last4', '') ELSE 'Payment by ' || coalesce(c.card_brand, 'card') || ' •••• ' || coalesce(c.card_last_4, '') END,
       c.settlement_id, c.created_at,
       CASE WHEN c.payment_method = 'ach' THEN 'ach_clearing' ELSE 'card_clearing' END, 'pending', 'processing_revenue'
FROM "charges" c WHERE c.status <> 'FAILED' AND c.amount_captured > 0
  AND NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = c.id AND lp.type = 'charge') ORDER BY c.seq;
--> statement-breakpoint
-- Refunds: pending −R, clearing +R.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || r.id), 1, 22), r.isv_account_id, r.merchant_id, 'refund', r.id, -r.amount, 0, 'Refund of ' || r.charge_id,
       r.settlement_id, r.created_at, CASE WHEN c.payment_method = 'ach' THEN 'ach_clearing' ELSE 'card_clearing' END, 'pending'
FROM "refunds" r JOIN "charges" c ON c.id = r.charge_id
WHERE NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = r.id AND lp.type = 'refund') ORDER BY r.seq;
--> statement-breakpoint
-- ACH returns (what the merchant still held) and their reversals.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || c.id || 'r'), 1, 22), c.isv_account_id, c.merchant_id, 'ach_return', c.id, -(c.amount_captured - c.amount_refunded), 0,
       c.id || ' returned by the bank', c.return_settlement_id, c.returned_at, 'ach_clearing', 'pending'
FROM "charges" c WHERE c.returned_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = c.id AND lp.type = 'ach_return') ORDER BY c.returned_at, c.seq;
--> statement-breakpoint
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || c.id || 'v'), 1, 22), c.isv_account_id, c.merchant_id, 'ach_return_reversal', c.id, c.amount_captured - c.amount_refunded, 0,
       'Return of ' || c.id || ' reversed by the bank', c.reversal_settlement_id, c.return_reversed_at, 'ach_clearing', 'pending'
FROM "charges" c WHERE c.returned_at IS NOT NULL AND c.return_reversed_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = c.id AND lp.type = 'ach_return_reversal') ORDER BY c.return_reversed_at, c.seq;
--> statement-breakpoint
-- Disputes: the amount to dispute_clearing, the fee to processing_revenue; a won dispute's amount back.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || d.id || k.type), 1, 22), d.isv_account_id, d.merchant_id, k.type, d.id,
       CASE k.type WHEN 'dispute' THEN -d.amount WHEN 'dispute_fee' THEN -d.fee ELSE d.amount END, 0,
       CASE k.type WHEN 'dispute' THEN 'Dispute of ' WHEN 'dispute_fee' THEN 'Dispute fee for ' ELSE 'Dispute won of ' END || d.charge_id,
       CASE k.type WHEN 'dispute_won' THEN d.won_settlement_id ELSE d.settlement_id END,
       CASE k.type WHEN 'dispute_won' THEN d.closed_at ELSE d.created_at END,
       CASE k.type WHEN 'dispute_fee' THEN 'processing_revenue' ELSE 'dispute_clearing' END, 'pending'
FROM "disputes" d CROSS JOIN (VALUES ('dispute', 1), ('dispute_fee', 2), ('dispute_won', 3)) AS k(type, n)
WHERE (k.type <> 'dispute_won' OR d.status = 'won') AND (k.type <> 'dispute_fee' OR d.fee > 0)
  AND NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = d.id AND lp.type = k.type) ORDER BY d.seq, k.n;
--> statement-breakpoint
-- Settlements: the net of what each took moves from pending to available; the clearing entries it took are funded.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || s.id || 's'), 1, 22), s.isv_account_id, s.merchant_id, 'settlement', s.id,
       coalesce((SELECT sum(b.amount - b.fee) FROM "ledger_backfill" b WHERE b.settlement_id = s.id), 0), 0,
       'Settlement ' || s.id, s.id, s.created_at, 'pending', 'available'
FROM "settlements" s
WHERE NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = s.id AND lp.type = 'settlement') ORDER BY s.seq;
--> statement-breakpoint
-- Payouts: available −P, payout_clearing +P; paid: to platform_cash; failed: back to available.
INSERT INTO "ledger_backfill" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "description", "settlement_id", "payout_id", "created_at", "debit_account", "credit_account")
SELECT 'txn_' || substr(md5(random()::text || p.id || k.type), 1, 22), p.isv_account_id, p.merchant_id, k.type, p.id,
       CASE k.type WHEN 'payout' THEN -p.amount WHEN 'payout_failure' THEN p.amount ELSE 0 END, 0,
       CASE k.type WHEN 'payout' THEN 'Payout to bank account •••• ' || coalesce(p.bank_last4, '') WHEN 'payout_failure' THEN 'Payout ' || p.id || ' failed: returned to the balance' ELSE 'Payout ' || p.id || ' paid' END,
       p.settlement_id,
       CASE k.type WHEN 'payout_failure' THEN (SELECT r.id FROM "payouts" r WHERE r.replaces = p.id) ELSE p.id END,
       CASE k.type WHEN 'payout' THEN p.created_at ELSE p.updated_at END,
       CASE k.type WHEN 'payout' THEN 'available' ELSE 'payout_clearing' END,
       CASE k.type WHEN 'payout' THEN 'payout_clearing' WHEN 'payout_paid' THEN 'platform_cash' ELSE 'available' END
FROM "payouts" p CROSS JOIN (VALUES ('payout', 1), ('payout_paid', 2), ('payout_failure', 3)) AS k(type, n)
WHERE (k.type = 'payout' OR (k.type = 'payout_paid' AND p.status = 'paid') OR (k.type = 'payout_failure' AND p.status = 'failed'))
  AND NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = p.id AND lp.type = k.type)
ORDER BY p.seq, k.n;
--> statement-breakpoint
-- A payout's lines: the settled postings of its settlement and of the negative settlements carried into it.
UPDATE "ledger_backfill" b SET "payout_id" = (
  SELECT p.id FROM "payouts" p JOIN "settlements" s2 ON s2.id = p.settlement_id
  WHERE s2.merchant_id = s.merchant_id AND s2.seq >= s.seq AND p.replaces IS NULL ORDER BY s2.seq LIMIT 1)
FROM "settlements" s
WHERE b.settlement_id = s.id AND b.payout_id IS NULL AND b.type NOT IN ('settlement', 'payout', 'payout_paid', 'payout_failure');
--> statement-breakpoint
INSERT INTO "ledger_postings" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "net", "currency", "description", "available_on", "settlement_id", "payout_id", "created_at")
SELECT b.id, b.isv_account_id, b.merchant_id, b.type, b.source_id,
       b.amount, b.fee,
       b.amount - b.fee, 'usd', b.description, pg_temp.ledger_day_after_settlement(b.created_at), b.settlement_id, b.payout_id, b.created_at
FROM "ledger_backfill" b ORDER BY b.created_at, b.seq;
--> statement-breakpoint
-- The entries, in one statement (the trigger checks each posting sums to zero): the merchant's side
-- (its net; a payout's moves `available`), the other side, and a charge's fee.
INSERT INTO "ledger_entries" ("posting_id", "account", "owner_id", "amount", "created_at")
SELECT e.posting_id, e.account, e.owner_id, e.amount, e.created_at FROM (
  SELECT b.id AS posting_id, b.credit_account AS account,
         CASE WHEN b.credit_account IN ('pending', 'available') THEN b.merchant_id END AS owner_id,
         CASE WHEN b.type = 'payout_paid' THEN (SELECT p.amount FROM "payouts" p WHERE p.id = b.source_id)
              WHEN b.type = 'payout' THEN -b.amount
              ELSE b.amount - b.fee END AS amount,
         b.created_at, b.seq, 1 AS n
  FROM "ledger_backfill" b
  UNION ALL
  SELECT b.id, b.debit_account,
         CASE WHEN b.debit_account IN ('pending', 'available') THEN b.merchant_id END,
         CASE WHEN b.type = 'payout_paid' THEN -(SELECT p.amount FROM "payouts" p WHERE p.id = b.source_id)
              WHEN b.type = 'payout' THEN b.amount
              ELSE -b.amount END,
         b.created_at, b.seq, 2
  FROM "ledger_backfill" b
  UNION ALL
  SELECT b.id, b.fee_account, NULL, b.fee, b.created_at, b.seq, 3 FROM "ledger_backfill" b WHERE b.fee <> 0
) e WHERE e.amount <> 0 ORDER BY e.seq, e.n;
--> statement-breakpoint
-- The processor's funding of each settlement: the clearing entries of what it took, drained to platform_cash.
INSERT INTO "ledger_postings" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "net", "currency", "description", "available_on", "settlement_id", "created_at")
SELECT 'txn_' || substr(md5(random()::text || s.id || 'f'), 1, 22), s.isv_account_id, s.merchant_id, 'funding', s.id, 0, 0, 0, 'usd',
       'Funding of settlement ' || s.id, pg_temp.ledger_day_after_settlement(s.created_at), s.id, s.created_at
FROM "settlements" s
WHERE NOT EXISTS (SELECT 1 FROM "ledger_postings" lp WHERE lp.source_id = s.id AND lp.type = 'funding')
  AND EXISTS (SELECT 1 FROM "ledger_entries" e JOIN "ledger_postings" lp ON lp.id = e.posting_id
              WHERE lp.settlement_id = s.id AND e.owner_id IS NULL AND e.account IN ('card_clearing', 'ach_clearing', 'dispute_clearing') AND e.amount <> 0);
--> statement-breakpoint
INSERT INTO "ledger_entries" ("posting_id", "account", "owner_id", "amount", "created_at")
SELECT f.id, x.account, NULL, x.amount, f.created_at FROM "ledger_postings" f
CROSS JOIN LATERAL (
  SELECT e.account, -sum(e.amount) AS amount FROM "ledger_entries" e JOIN "ledger_postings" lp ON lp.id = e.posting_id
  WHERE lp.settlement_id = f.settlement_id AND lp.type <> 'funding' AND e.owner_id IS NULL AND e.account IN ('card_clearing', 'ach_clearing', 'dispute_clearing')
  GROUP BY e.account
  UNION ALL
  SELECT 'platform_cash', sum(e.amount) FROM "ledger_entries" e JOIN "ledger_postings" lp ON lp.id = e.posting_id
  WHERE lp.settlement_id = f.settlement_id AND lp.type <> 'funding' AND e.owner_id IS NULL AND e.account IN ('card_clearing', 'ach_clearing', 'dispute_clearing')
) x
WHERE f.type = 'funding' AND x.amount <> 0 AND NOT EXISTS (SELECT 1 FROM "ledger_entries" done WHERE done.posting_id = f.id);
--> statement-breakpoint
DROP TABLE "ledger_backfill";
--> statement-breakpoint
DROP FUNCTION "pg_temp"."ledger_day_after_settlement"(timestamptz);
