import { and, asc, eq, gt, inArray, isNotNull, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";

import { currentKeyId, rewrapBytes, rewrapDeep } from "../../crypto/field-encryption";
import { accounts, fileContents, merchants, payouts, userFactors, webhooks } from "../../db/schema";
import { type Db, type Tx } from "../../db/types";
import { writeMerchant } from "../merchants/write-merchant";

// After a key rotation (a new ENCRYPTION_KEY, the old one in ENCRYPTION_KEYS_PREVIOUS), everything
// written with the old key is still readable; this writes it again under the new one, so that the
// old key can then be dropped: the applications' sensitive fields, the webhooks' signing secrets, the
// ISVs' payout bank accounts and the destinations their payouts keep, and the documents' bytes. In
// batches, each row locked while it is rewritten (a change racing it waits); safe to run again (what
// is already under the current key is left alone) and while the service runs.

type Table = "merchants" | "webhooks" | "accounts" | "account_payouts" | "user_factors" | "files";

/**
 * Every row of `table` in batches of `batch` ids (in id order), each batch in a transaction of its
 * own: `rewrite` locks the batch's rows and answers how many it wrote again.
 */
async function inBatches(
  db: Db,
  batch: number,
  table: PgTable,
  id: AnyPgColumn,
  rewrite: (tx: Tx, ids: string[]) => Promise<number>,
  only?: SQL,
) {
  let after = "";
  let count = 0;
  for (;;) {
    const rows = await db
      .select({ id })
      .from(table)
      .where(and(gt(id, after), only))
      .orderBy(asc(id))
      .limit(batch);
    const ids = rows.map((r) => String(r.id));
    const last = ids.at(-1);
    if (last === undefined) return count;
    count += await db.transaction((tx) => rewrite(tx, ids));
    after = last;
    if (ids.length < batch) return count;
  }
}

/** The JSON values of a batch's rows (locked), each written again when an envelope in it is under an old key. */
async function rewrapValues<T>(
  rows: { id: string; value: T | null }[],
  write: (id: string, value: T) => Promise<unknown>,
) {
  let n = 0;
  for (const row of rows) {
    if (row.value === null) continue;
    const { value, changed } = rewrapDeep(row.value);
    if (!changed) continue;
    await write(row.id, value);
    n++;
  }
  return n;
}

export async function rewrapAll(db: Db, { batch = 200 } = {}): Promise<{ key_id: string } & Record<Table, number>> {
  const merchantsDone = await inBatches(db, batch, merchants, merchants.id, async (tx, ids) =>
    rewrapValues(
      await tx
        .select({ id: merchants.id, value: merchants.application })
        .from(merchants)
        .where(inArray(merchants.id, ids))
        .for("update"),
      (id, application) => writeMerchant(tx, id, { application }),
    ),
  );
  const webhooksDone = await inBatches(db, batch, webhooks, webhooks.id, async (tx, ids) =>
    rewrapValues(
      await tx
        .select({ id: webhooks.id, value: webhooks.secret })
        .from(webhooks)
        .where(inArray(webhooks.id, ids))
        .for("update"),
      (id, secret) => tx.update(webhooks).set({ secret }).where(eq(webhooks.id, id)),
    ),
  );
  const accountsDone = await inBatches(db, batch, accounts, accounts.id, async (tx, ids) =>
    rewrapValues(
      await tx
        .select({ id: accounts.id, value: accounts.payoutBankAccount })
        .from(accounts)
        .where(inArray(accounts.id, ids))
        .for("update"),
      (id, payoutBankAccount) => tx.update(accounts).set({ payoutBankAccount }).where(eq(accounts.id, id)),
    ),
  );
  // The ISV's payouts keep the account they were made for; a merchant's keeps none.
  const accountPayoutsDone = await inBatches(
    db,
    batch,
    payouts,
    payouts.id,
    async (tx, ids) =>
      rewrapValues(
        await tx
          .select({ id: payouts.id, value: payouts.destination })
          .from(payouts)
          .where(inArray(payouts.id, ids))
          .for("update"),
        (id, destination) => tx.update(payouts).set({ destination }).where(eq(payouts.id, id)),
      ),
    isNotNull(payouts.destination),
  );
  // The members' authenticator-app secrets.
  const factorsDone = await inBatches(
    db,
    batch,
    userFactors,
    userFactors.id,
    async (tx, ids) =>
      rewrapValues(
        await tx
          .select({ id: userFactors.id, value: userFactors.secret })
          .from(userFactors)
          .where(inArray(userFactors.id, ids))
          .for("update"),
        (id, secret) => tx.update(userFactors).set({ secret }).where(eq(userFactors.id, id)),
      ),
    isNotNull(userFactors.secret),
  );
  // Documents one at a time per row (up to 10 MB each), in small batches.
  const filesDone = await inBatches(db, Math.min(batch, 20), fileContents, fileContents.fileId, async (tx, ids) => {
    let n = 0;
    const rows = await tx.select().from(fileContents).where(inArray(fileContents.fileId, ids)).for("update");
    for (const row of rows) {
      const sealed = rewrapBytes(Buffer.from(row.content));
      if (!sealed) continue;
      await tx.update(fileContents).set({ content: sealed }).where(eq(fileContents.fileId, row.fileId));
      n++;
    }
    return n;
  });
  return {
    key_id: currentKeyId(),
    merchants: merchantsDone,
    webhooks: webhooksDone,
    accounts: accountsDone,
    account_payouts: accountPayoutsDone,
    user_factors: factorsDone,
    files: filesDone,
  };
}
