-- What a payment, a dispute or a bank's return cost the platform, as ledger postings (docs/reference.md
-- section 19): for the objects costed before costs were posted (0035 to 0039), the `cost` posting
-- each would have written, from the platform's processing_revenue to processing_costs, at its time.
-- An object that has its cost posting already gets none again (running it twice adds nothing).
INSERT INTO "ledger_postings" ("id", "isv_account_id", "merchant_id", "type", "source_id", "amount", "fee", "net", "description", "available_on", "created_at")
SELECT 'txn_' || substr(md5('cost:' || x.source_id || ':' || x.kind), 1, 22), x.isv_account_id, x.merchant_id, 'cost', x.source_id, 0, 0, 0,
       x.description, to_char((x.at AT TIME ZONE 'UTC')::date + 1, 'YYYY-MM-DD'), x.at
FROM (
  SELECT 'charge' AS kind, c.isv_account_id, c.merchant_id, c.id AS source_id, c.costs AS cost, 'Costs of ' || c.id AS description, c.created_at AS at
    FROM "charges" c WHERE c.status <> 'FAILED' AND coalesce(c.costs, 0) > 0
  UNION ALL
  SELECT 'return', c.isv_account_id, c.merchant_id, c.id, c.return_costs, 'Return costs of ' || c.id, c.returned_at
    FROM "charges" c WHERE coalesce(c.return_costs, 0) > 0 AND c.returned_at IS NOT NULL
  UNION ALL
  SELECT 'dispute', d.isv_account_id, d.merchant_id, d.id, d.costs, 'Costs of dispute ' || d.id, d.created_at
    FROM "disputes" d WHERE coalesce(d.costs, 0) > 0
) x
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_postings" lp WHERE lp.type = 'cost' AND lp.source_id = x.source_id
    AND lp.description = x.description
);
--> statement-breakpoint
INSERT INTO "ledger_entries" ("posting_id", "account", "owner_id", "amount", "created_at")
SELECT lp.id, side.account, NULL, side.amount, lp.created_at
FROM "ledger_postings" lp
JOIN LATERAL (
  SELECT coalesce(
    (SELECT c.costs FROM "charges" c WHERE c.id = lp.source_id AND lp.description = 'Costs of ' || c.id),
    (SELECT c.return_costs FROM "charges" c WHERE c.id = lp.source_id AND lp.description = 'Return costs of ' || c.id),
    (SELECT d.costs FROM "disputes" d WHERE d.id = lp.source_id AND lp.description = 'Costs of dispute ' || d.id)
  ) AS cost
) x ON x.cost > 0
CROSS JOIN LATERAL (VALUES ('processing_revenue', -x.cost), ('processing_costs', x.cost)) AS side(account, amount)
WHERE lp.type = 'cost' AND NOT EXISTS (SELECT 1 FROM "ledger_entries" le WHERE le.posting_id = lp.id);
