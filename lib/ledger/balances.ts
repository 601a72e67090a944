import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { type DbOrTx } from "../db/types";

/** How old an entry must be for a checkpoint to count it: no transaction still open holds a lower id. */
export const CHECKPOINT_MARGIN_MS = 10 * 60 * 1000;

/**
 * A merchant's balance (docs/reference.md section 18): for each of its three accounts, what its
 * checkpoint holds plus the sum of the account's later entries (one index range each).
 */
export async function balanceOf(db: DbOrTx, merchantId: string) {
  const rows = rowsOf<{ account: string; total: string | number }>(
    await db.execute(sql`
      select a.account, coalesce(c.amount, 0) + coalesce((
        select sum(e.amount) from ledger_entries e
        where e.owner_id = ${merchantId} and e.account = a.account and e.id > coalesce(c.through_entry_id, 0)
      ), 0) as total
      from (values ('pending'), ('available'), ('reserved')) as a(account)
      left join ledger_balance_checkpoints c on c.owner_id = ${merchantId} and c.account = a.account`),
  );
  const of = (account: string) => Number(rows.find((r) => r.account === account)?.total ?? 0);
  return { available: of("available"), pending: of("pending"), reserved: of("reserved") };
}

/**
 * Moves every merchant account's checkpoint on to the last entry older than `marginMs` (the daily
 * ledger check; `ownerId`: one merchant's): its amount grows by the entries in between. Answers how
 * many accounts moved.
 * A transaction that wrote an entry with a lower id and committed after would be missed: the margin
 * is longer than any transaction here, and `checkLedger` holds every checkpoint to its entries.
 */
export async function checkpointBalances(db: DbOrTx, options: { marginMs?: number; ownerId?: string } = {}) {
  const marginMs = options.marginMs ?? CHECKPOINT_MARGIN_MS;
  const ofOwner = options.ownerId ? sql`and e.owner_id = ${options.ownerId}` : sql``;
  const rows = rowsOf<{ owner_id: string }>(
    await db.execute(sql`
      with bound as (
        select coalesce(max(id), 0) as through from ledger_entries
        where created_at < now() - make_interval(secs => ${marginMs / 1000})
      ),
      moved as (
        select e.owner_id, e.account, sum(e.amount) as amount
        from ledger_entries e
        left join ledger_balance_checkpoints c on c.owner_id = e.owner_id and c.account = e.account
        cross join bound
        where e.owner_id is not null and e.account in ('pending', 'available', 'reserved')
          and e.id > coalesce(c.through_entry_id, 0) and e.id <= bound.through ${ofOwner}
        group by e.owner_id, e.account
      )
      insert into ledger_balance_checkpoints (owner_id, account, through_entry_id, amount, updated_at)
      select m.owner_id, m.account, bound.through, m.amount, now() from moved m cross join bound
      on conflict (owner_id, account) do update
        set amount = ledger_balance_checkpoints.amount + excluded.amount,
            through_entry_id = excluded.through_entry_id, updated_at = now()
      returning owner_id`),
  );
  return rows.length;
}
