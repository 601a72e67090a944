import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";

import { openDatabase, rowsOf } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { type DatabaseHandle } from "@/lib/db/types";

import { scratchDir } from "../helpers/scratch";

// Issue 70: the ISV's payouts moved from `account_payouts` into `payouts` (recipient `account`,
// migration 0048). A database the release before made (migrations up to 0047) with ISV payouts in
// every state keeps each one, same id, amount, state, residual, replacement and kept destination, in
// the order they were made; the old table is gone; the new table refuses an ISV payout that is held
// or names a merchant.

const migrations = path.join(process.cwd(), "lib/db/migrations");
let handle: DatabaseHandle | undefined;
afterAll(() => handle?.close());

/** The migrations of the release before this one (0000-0047), in a folder of their own. */
function releaseBefore() {
  const dir = scratchDir("migrations-0047-");
  fs.cpSync(migrations, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 47);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

test("the ISV's payouts of the release before are the same payouts in the one table", async () => {
  handle = await openDatabase({ dataDir: scratchDir("one-table-"), migrate: false, poolSize: 1 });
  const { db } = handle;
  await migrateDatabase(handle, releaseBefore());
  const destination = { routing_number: "021000021", account_number: "enc.v1.sealed", last4: "6789" };
  await db.execute(sql`insert into residuals (id, isv_account_id, period, volume, count, merchant_fees, costs,
      margin, revenue_share_percent, share, platform_fees, amount, status, payout_id, line_count)
    values ('res_a', 'acct_1', '2026-09', 100000, 10, 3000, 1000, 2000, 50, 1000, 0, 1000, 'paid', 'po_paid', 1),
           ('res_b', 'acct_1', '2026-10', 100000, 10, 3000, 1000, 2000, 50, 1200, 0, 1200, 'pending', 'po_again', 1)`);
  await db.execute(sql`insert into account_payouts (id, isv_account_id, residual_id, replaces, amount, status,
      failure_code, arrival_date, bank_last4, bank_name, destination)
    values ('po_paid', 'acct_1', 'res_a', null, 1000, 'paid', null, '2026-10-02', '6789', 'Chase', ${JSON.stringify(destination)}::jsonb),
           ('po_refused', 'acct_1', 'res_b', null, 1200, 'failed', 'account_closed', '2026-11-03', '0000', null, null),
           ('po_again', 'acct_1', 'res_b', 'po_refused', 1200, 'in_transit', null, '2026-11-10', '6789', 'Chase', null)`);

  await migrateDatabase(handle);

  const moved = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select id, recipient, merchant_id, settlement_id, residual_id, replaces, amount, status,
        held_reason, failure_code, arrival_date, bank_last4, bank_name, destination from payouts order by seq`),
  );
  const base = { recipient: "account", merchant_id: null, settlement_id: null, held_reason: null };
  expect(moved).toEqual([
    {
      ...base,
      id: "po_paid",
      residual_id: "res_a",
      replaces: null,
      amount: 1000,
      status: "paid",
      failure_code: null,
      arrival_date: "2026-10-02",
      bank_last4: "6789",
      bank_name: "Chase",
      destination,
    },
    {
      ...base,
      id: "po_refused",
      residual_id: "res_b",
      replaces: null,
      amount: 1200,
      status: "failed",
      failure_code: "account_closed",
      arrival_date: "2026-11-03",
      bank_last4: "0000",
      bank_name: null,
      destination: null,
    },
    {
      ...base,
      id: "po_again",
      residual_id: "res_b",
      replaces: "po_refused",
      amount: 1200,
      status: "in_transit",
      failure_code: null,
      arrival_date: "2026-11-10",
      bank_last4: "6789",
      bank_name: "Chase",
      destination: null,
    },
  ]);
  const [old] = rowsOf<{ name: string | null }>(await db.execute(sql`select to_regclass('account_payouts') as name`));
  expect(old?.name).toBeNull();

  // The one table's rules: an ISV's payout is never held, names no merchant, and names its residual.
  const insert = async (values: ReturnType<typeof sql>) =>
    db
      .execute(
        sql`insert into payouts (id, isv_account_id, recipient, residual_id, amount, status, held_reason) values ${values}`,
      )
      .then(
        () => "written",
        () => "refused",
      );
  await db.execute(sql`insert into residuals (id, isv_account_id, period, volume, count, merchant_fees, costs,
      margin, revenue_share_percent, share, platform_fees, amount, status, line_count)
    values ('res_c', 'acct_1', '2026-11', 100000, 10, 3000, 1000, 2000, 50, 5, 0, 5, 'pending', 1)`);
  expect(await insert(sql`('po_held', 'acct_1', 'account', 'res_c', 5, 'held', 'automatic_payouts_off')`)).toBe(
    "refused",
  );
  expect(await insert(sql`('po_none', 'acct_1', 'account', null, 5, 'pending', null)`)).toBe("refused");
  // One first payout per residual.
  expect(await insert(sql`('po_twice', 'acct_1', 'account', 'res_b', 5, 'pending', null)`)).toBe("refused");
  expect(await insert(sql`('po_ok', 'acct_1', 'account', 'res_c', 5, 'pending', null)`)).toBe("written");
  const [count] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from payouts`));
  expect(Number(count?.n)).toBe(4);
}, 120_000);
