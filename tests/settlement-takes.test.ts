import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { openDatabase, rowsOf } from "@/lib/db/client";
import { ledgerPostings } from "@/lib/db/schema";
import type { DatabaseHandle } from "@/lib/db/types";
import { createIsv } from "@/lib/domain/accounts/create-isv";
import { getAccount } from "@/lib/domain/accounts/get-account";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { env } from "@/lib/env";
import { createId, randomBase62 } from "@/lib/ids";
import { isvRevenue, pending, platform } from "@/lib/ledger/entry-helpers";
import { post } from "@/lib/ledger/post";
import { merchantsWithPostingsToSettle, takeForSettlement } from "@/lib/ledger/settlement-movements";
import { type PostingType } from "@/lib/schemas/ledger-values";

// What a settlement takes is the ledger's to say (docs/reference.md section 13): every posting of
// the merchant through its `pending` made before the cutoff that no settlement took, whatever its
// type; nothing else. Against a real database: the update is the rule.

let handle: DatabaseHandle;
let isvAccountId: string;
const merchantIds: string[] = [];

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
  const isv = await createIsv(handle.db, {
    name: "Take ISV",
    email: `take-${randomBase62(8).toLowerCase()}@example.test`,
    password: "a long password",
    live: false,
  });
  isvAccountId = isv.account_id;
  const account = await getAccount(handle.db, isvAccountId);
  for (let i = 0; i < 2; i++)
    merchantIds.push((await createMerchant(handle.db, account, { phone: "+14155550123" } as never)).row.id);
});
afterAll(() => handle.close());

const cutoff = new Date("2026-11-20T00:00:00Z");
const before = new Date("2026-11-19T23:59:59.999Z");

/** A posting of `type` moving `amount` between the merchant's `pending` and the platform's revenue, or elsewhere. */
async function posting(
  merchantId: string,
  type: PostingType,
  createdAt: Date,
  through: "pending" | "elsewhere" = "pending",
  amount = 500,
) {
  const row = await post(handle.db, {
    isvAccountId,
    merchantId,
    type,
    sourceId: createId("txn"),
    amount: through === "pending" ? amount : 0,
    description: `a ${type}`,
    createdAt,
    entries:
      through === "pending"
        ? [pending(merchantId, amount), platform("processing_revenue", -amount)]
        : [platform("processing_revenue", -amount), isvRevenue(isvAccountId, amount)],
  });
  return row!;
}

describe("takeForSettlement", () => {
  test("takes every untaken posting through pending before the cutoff, of any type, once", async () => {
    const [merchantId, other] = merchantIds as [string, string];
    const taken = [
      await posting(merchantId, "charge", before),
      await posting(merchantId, "refund", before, "pending", -200),
      await posting(merchantId, "dispute_won", before),
      await posting(merchantId, "monthly_fee", before, "pending", -100),
      // A type no settlement code names: taken all the same.
      await posting(merchantId, "adjustment", before, "pending", 42),
      // A charge whose fee is its whole amount still moved pending (an entry of 0 is left out, the fact is kept).
      await post(handle.db, {
        isvAccountId,
        merchantId,
        type: "charge",
        sourceId: createId("ch"),
        amount: 30,
        fee: 30,
        description: "all fee",
        createdAt: before,
        entries: [platform("card_clearing", -30), pending(merchantId, 0), platform("processing_revenue", 30)],
      }),
    ].map((p) => p!.id);
    const left = [
      await posting(merchantId, "charge", cutoff),
      await posting(merchantId, "cost", before, "elsewhere"),
      await posting(other, "charge", before),
    ].map((p) => p.id);

    const merchantsDue = rowsOf<{ merchant_id: string }>(
      await handle.db.execute(merchantsWithPostingsToSettle(cutoff, { isvAccountId })),
    ).map((r) => r.merchant_id);
    expect(merchantsDue).toEqual([...merchantIds].sort());

    const took = await takeForSettlement(handle.db, { id: "stl_first", merchantId }, cutoff);
    expect(took.map((p) => p.id).sort()).toEqual([...taken].sort());
    expect(took.reduce((sum, p) => sum + p.net, 0)).toBe(500 - 200 + 500 - 100 + 42 + 0);
    for (const id of left) {
      const [row] = await handle.db.select().from(ledgerPostings).where(eq(ledgerPostings.id, id));
      expect(row?.settlementId).toBeNull();
    }
    // A second settlement at the same cutoff takes nothing: each posting once.
    expect(await takeForSettlement(handle.db, { id: "stl_second", merchantId }, cutoff)).toEqual([]);
    // The next day's takes what came at the cutoff.
    const next = await takeForSettlement(handle.db, { id: "stl_next", merchantId }, new Date("2026-11-21T00:00:00Z"));
    expect(next.map((p) => p.id)).toEqual([left[0]]);
  });
});
