import { asc, eq, gt, inArray } from "drizzle-orm";

import { currentKeyId, rewrapBytes, rewrapDeep } from "../../crypto/field-encryption";
import { accountPayouts, accounts, fileContents, merchants, webhooks } from "../../db/schema";
import { type Db } from "../../db/types";
import { writeMerchant } from "../merchants/write-merchant";

// After a key rotation (a new ENCRYPTION_KEY, the old one in ENCRYPTION_KEYS_PREVIOUS), everything
// written with the old key is still readable; this writes it again under the new one, so that the
// old key can then be dropped: the applications' sensitive fields, the webhooks' signing secrets, the
// ISVs' payout bank accounts and the destinations their payouts keep, and the documents' bytes. In batches, each row locked while it is rewritten (a change racing it waits);
// safe to run again (what is already under the current key is left alone) and while the service runs.

type Table = "merchants" | "webhooks" | "accounts" | "account_payouts" | "files";

async function inBatches(
  db: Db,
  batch: number,
  nextIds: (after: string) => Promise<string[]>,
  rewrite: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], ids: string[]) => Promise<number>,
) {
  let after = "";
  let count = 0;
  for (;;) {
    const ids = await nextIds(after);
    const last = ids.at(-1);
    if (last === undefined) return count;
    count += await db.transaction((tx) => rewrite(tx, ids));
    after = last;
    if (ids.length < batch) return count;
  }
}

export async function rewrapAll(db: Db, { batch = 200 } = {}): Promise<{ key_id: string } & Record<Table, number>> {
  const merchantsDone = await inBatches(
    db,
    batch,
    async (after) =>
      (
        await db
          .select({ id: merchants.id })
          .from(merchants)
          .where(gt(merchants.id, after))
          .orderBy(asc(merchants.id))
          .limit(batch)
      ).map((r) => r.id),
    async (tx, ids) => {
      let n = 0;
      const rows = await tx
        .select({ id: merchants.id, application: merchants.application })
        .from(merchants)
        .where(inArray(merchants.id, ids))
        .for("update");
      for (const row of rows) {
        const { value, changed } = rewrapDeep(row.application);
        if (!changed) continue;
        await writeMerchant(tx, row.id, { application: value });
        n++;
      }
      return n;
    },
  );
  const webhooksDone = await inBatches(
    db,
    batch,
    async (after) =>
      (
        await db
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(gt(webhooks.id, after))
          .orderBy(asc(webhooks.id))
          .limit(batch)
      ).map((r) => r.id),
    async (tx, ids) => {
      let n = 0;
      const rows = await tx
        .select({ id: webhooks.id, secret: webhooks.secret })
        .from(webhooks)
        .where(inArray(webhooks.id, ids))
        .for("update");
      for (const row of rows) {
        const { value, changed } = rewrapDeep(row.secret);
        if (!changed) continue;
        await tx.update(webhooks).set({ secret: value }).where(eq(webhooks.id, row.id));
        n++;
      }
      return n;
    },
  );
  const accountsDone = await inBatches(
    db,
    batch,
    async (after) =>
      (
        await db
          .select({ id: accounts.id })
          .from(accounts)
          .where(gt(accounts.id, after))
          .orderBy(asc(accounts.id))
          .limit(batch)
      ).map((r) => r.id),
    async (tx, ids) => {
      let n = 0;
      const rows = await tx
        .select({ id: accounts.id, bank: accounts.payoutBankAccount })
        .from(accounts)
        .where(inArray(accounts.id, ids))
        .for("update");
      for (const row of rows) {
        if (!row.bank) continue;
        const { value, changed } = rewrapDeep(row.bank);
        if (!changed) continue;
        await tx.update(accounts).set({ payoutBankAccount: value }).where(eq(accounts.id, row.id));
        n++;
      }
      return n;
    },
  );
  const accountPayoutsDone = await inBatches(
    db,
    batch,
    async (after) =>
      (
        await db
          .select({ id: accountPayouts.id })
          .from(accountPayouts)
          .where(gt(accountPayouts.id, after))
          .orderBy(asc(accountPayouts.id))
          .limit(batch)
      ).map((r) => r.id),
    async (tx, ids) => {
      let n = 0;
      const rows = await tx
        .select({ id: accountPayouts.id, destination: accountPayouts.destination })
        .from(accountPayouts)
        .where(inArray(accountPayouts.id, ids))
        .for("update");
      for (const row of rows) {
        if (!row.destination) continue;
        const { value, changed } = rewrapDeep(row.destination);
        if (!changed) continue;
        await tx.update(accountPayouts).set({ destination: value }).where(eq(accountPayouts.id, row.id));
        n++;
      }
      return n;
    },
  );
  // Documents one at a time per row (up to 10 MB each), in small batches.
  const filesDone = await inBatches(
    db,
    Math.min(batch, 20),
    async (after) =>
      (
        await db
          .select({ id: fileContents.fileId })
          .from(fileContents)
          .where(gt(fileContents.fileId, after))
          .orderBy(asc(fileContents.fileId))
          .limit(Math.min(batch, 20))
      ).map((r) => r.id),
    async (tx, ids) => {
      let n = 0;
      const rows = await tx.select().from(fileContents).where(inArray(fileContents.fileId, ids)).for("update");
      for (const row of rows) {
        const sealed = rewrapBytes(Buffer.from(row.content));
        if (!sealed) continue;
        await tx.update(fileContents).set({ content: sealed }).where(eq(fileContents.fileId, row.fileId));
        n++;
      }
      return n;
    },
  );
  return {
    key_id: currentKeyId(),
    merchants: merchantsDone,
    webhooks: webhooksDone,
    accounts: accountsDone,
    account_payouts: accountPayoutsDone,
    files: filesDone,
  };
}
