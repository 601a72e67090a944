import { type SubscriptionRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { recoveredBySubscription } from "../../ledger/recovered";
import { serializeSubscription } from "../../serializers/subscription";

// A subscription as the API shows it, with what dunning recovered read from the ledger
// (lib/ledger/recovered.ts): one query for a page of them.

export async function subscriptionJson(db: DbOrTx, row: SubscriptionRow) {
  const recovered = await recoveredBySubscription(db, [row.id]);
  return serializeSubscription(row, recovered.get(row.id) ?? 0);
}

export async function subscriptionsJson(db: DbOrTx, rows: readonly SubscriptionRow[]) {
  const recovered = await recoveredBySubscription(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => serializeSubscription(row, recovered.get(row.id) ?? 0));
}
