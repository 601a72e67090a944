import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { type DbOrTx } from "../db/types";
import { activityPostingTypes, internalPostingTypes } from "../schemas/ledger-values";
import { promisedPayouts, unpaidLines, unsentManualPayouts } from "./payout-draws";

/** Every invariant checkLedger checks, by name: the daily check's gauge has one series each. */
export const ledgerInvariants = [
  "posting_sums_to_zero",
  "posting_net_is_what_moved",
  "payout_equals_its_lines",
  "settlement_equals_its_postings",
  "balance_is_its_transactions",
  "statement_equals_its_period",
  "statement_fees_are_its_period",
  "bill_is_its_postings",
  "checkpoint_is_its_entries",
  "clearing_holds_what_is_not_funded",
  "clearing_is_the_payment_method",
  "payout_clearing_holds_payouts_on_their_way",
  "available_is_what_payouts_draw",
  "reserved_is_what_reserves_hold",
] as const;
export type LedgerInvariant = (typeof ledgerInvariants)[number];

export type LedgerViolation = { invariant: LedgerInvariant; id: string; expected: number; actual: number };

const internal = sql.raw(`(${internalPostingTypes.map((t) => `'${t}'`).join(", ")})`);
/**
 * The payouts on their way, to either recipient: posted out of the balance and not answered by the
 * bank yet (a merchant's is posted when sent; an ISV's, and an older release's merchant payouts, when
 * made).
 */
const onTheirWay = sql`(select coalesce(sum(po.amount), 0) from payouts po where po.status not in ('paid', 'failed')
    and exists (select 1 from ledger_postings p where p.source_id = po.id and p.type = 'payout'))`;
/** The merchant's activity a statement adds up (lib/schemas/ledger-values.ts). */
const activityTypes = sql.raw(`(${activityPostingTypes.map((t) => `'${t}'`).join(", ")})`);

/**
 * The invariants of docs/reference.md section 18, checked over the whole ledger (or one merchant's):
 * every posting sums to zero; a posting's net is what it moved in its merchant's accounts; each payout
 * equals the sum of its lines (a reserve's holds and releases among them); `reserved` is what the reserves hold; each settlement's net (less the negative net carried in) equals the
 * postings it took; a payment's clearing entries are its method's; a final statement's net and fees are its month's postings and bill, a bill its postings; the clearing accounts hold exactly what no settlement has funded yet; a merchant's
 * balance is the sum of its balance transactions; each balance checkpoint holds exactly its entries.
 * Answers what broke (empty: all hold). `merchants`: one merchant's id or several (their invariants in
 * one pass of each query, their own index ranges), or none for the whole ledger.
 */
export async function checkLedger(db: DbOrTx, merchants?: string | string[]): Promise<LedgerViolation[]> {
  const merchantId = merchants === undefined ? undefined : [merchants].flat();
  if (merchantId?.length === 0) return [];
  const ofMerchant = (column: string) =>
    merchantId
      ? sql`and ${sql.raw(column)} in (${sql.join(
          merchantId.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
  const queries: [LedgerInvariant, ReturnType<typeof sql>][] = [
    [
      "posting_sums_to_zero",
      sql`select e.posting_id as id, 0 as expected, sum(e.amount) as actual
          from ledger_entries e join ledger_postings p on p.id = e.posting_id
          where true ${ofMerchant("p.merchant_id")}
          group by e.posting_id having sum(e.amount) <> 0`,
    ],
    [
      "posting_net_is_what_moved",
      sql`select p.id, case when p.type in ${internal} then 0 else p.net end as expected,
                 coalesce(sum(e.amount) filter (where e.owner_id = p.merchant_id and e.account in ('pending', 'available')), 0) as actual
          from ledger_postings p join ledger_entries e on e.posting_id = p.id
          where p.merchant_id is not null and p.type <> 'settlement' ${ofMerchant("p.merchant_id")}
          group by p.id
          having coalesce(sum(e.amount) filter (where e.owner_id = p.merchant_id and e.account in ('pending', 'available')), 0)
                 <> case when p.type in ${internal} then 0 else p.net end`,
    ],
    [
      "payout_equals_its_lines",
      sql`select po.id, po.amount as expected, coalesce(sum(p.net), 0) as actual
          from payouts po left join ledger_postings p on p.payout_id = po.id and p.type <> 'payout_paid'
            and not (p.type = 'payout' and p.source_id = po.id)
          where po.recipient = 'merchant' and (po.automatic or po.replaces is not null) ${ofMerchant("po.merchant_id")}
          group by po.id, po.amount having coalesce(sum(p.net), 0) <> po.amount`,
    ],
    [
      "settlement_equals_its_postings",
      sql`select s.id, s.net - s.carried_in as expected, coalesce(sum(p.net), 0) as actual
          from settlements s left join ledger_postings p on p.settlement_id = s.id
            and p.type not in ('payout', 'payout_failure') and p.type not in ${internal}
          where true ${ofMerchant("s.merchant_id")}
          group by s.id, s.net, s.carried_in having coalesce(sum(p.net), 0) <> s.net - s.carried_in`,
    ],
    [
      "balance_is_its_transactions",
      sql`select m.merchant_id as id, m.transactions as expected, coalesce(b.entries, 0) as actual from
            (select merchant_id, sum(net) as transactions from ledger_postings
             where merchant_id is not null and type not in ${internal} ${ofMerchant("merchant_id")} group by merchant_id) m
          left join (select owner_id, sum(amount) as entries from ledger_entries
             where account in ('pending', 'available') ${ofMerchant("owner_id")} group by owner_id) b on b.owner_id = m.merchant_id
          where m.transactions <> coalesce(b.entries, 0)`,
    ],
  ];
  // A payment's money, and what its refunds and its bank's return give back, go through its own
  // network's clearing account: a card's through `card_clearing`, a bank debit's through
  // `ach_clearing` (funding drains whatever a settlement took, so a swap would otherwise never show).
  queries.push([
    "clearing_is_the_payment_method",
    sql`select p.id, 0 as expected, count(*) as actual
        from ledger_postings p
        join ledger_entries e on e.posting_id = p.id and e.account in ('card_clearing', 'ach_clearing')
        left join refunds r on p.type = 'refund' and r.id = p.source_id
        join charges c on c.id = coalesce(r.charge_id, p.source_id)
        where p.type in ('charge', 'refund', 'ach_return', 'ach_return_reversal') ${ofMerchant("p.merchant_id")}
          and e.account <> case when c.payment_method = 'ach' then 'ach_clearing' else 'card_clearing' end
        group by p.id`,
  ]);
  // A merchant's payouts draw on `available` (./payout-draws.ts): what it holds, less the payouts
  // promised out of it, is what its settled postings not paid out add up to (0 right after a daily
  // payout, the negative net carried into the next settlement, a week's nets on a weekly schedule).
  queries.push([
    "available_is_what_payouts_draw",
    // What the next payout may draw (available less the payouts promised out of it) is what an
    // automatic payout would take as its lines, less the manual payouts not sent yet.
    sql`select m.id, ${unpaidLines(sql`m.id`)} - ${unsentManualPayouts(sql`m.id`)} as expected,
               coalesce(a.amount, 0) - ${promisedPayouts(sql`m.id`)} as actual
        from merchants m
        left join (select owner_id, sum(amount) as amount from ledger_entries
                   where account = 'available' ${ofMerchant("owner_id")} group by owner_id) a on a.owner_id = m.id
        where true ${ofMerchant("m.id")}
          and ${unpaidLines(sql`m.id`)} - ${unsentManualPayouts(sql`m.id`)}
              <> coalesce(a.amount, 0) - ${promisedPayouts(sql`m.id`)}`,
  ]);
  // A merchant's `reserved` is what its reserves hold: its holds less its releases (a hold's net is
  // what left `available`), and no reserve gives back more than it held.
  queries.push([
    "reserved_is_what_reserves_hold",
    sql`select coalesce(r.merchant_id, h.merchant_id) as id, coalesce(h.held, 0) as expected, coalesce(r.amount, 0) as actual
        from (select owner_id as merchant_id, sum(amount) as amount from ledger_entries
              where account = 'reserved' ${ofMerchant("owner_id")} group by owner_id) r
        full join (select merchant_id, 0 - sum(net) as held from ledger_postings
              where type in ('reserve_hold', 'reserve_release') ${ofMerchant("merchant_id")} group by merchant_id) h
          on h.merchant_id = r.merchant_id
        where coalesce(h.held, 0) <> coalesce(r.amount, 0)
        union all
        select source_id as id, 0 as expected, sum(net) as actual from ledger_postings
        where type in ('reserve_hold', 'reserve_release') ${ofMerchant("merchant_id")}
        group by source_id having sum(net) > 0`,
  ]);
  // A final statement's net, with its month-end fees (its month's bill) put back, is the net of its
  // month's activity postings; its fees are its charges' and disputes' fees of the month and its bill.
  const monthOf = (column: string) =>
    sql.raw(`p.created_at >= (${column} || '-01T00:00:00Z')::timestamptz
          and p.created_at < (${column} || '-01T00:00:00Z')::timestamptz + interval '1 month'`);
  const billOf = sql.raw(`(select coalesce(sum(b.total), 0) from merchant_bills b
                           where b.merchant_id = s.merchant_id and b.period = s.period)`);
  queries.push(
    [
      "statement_equals_its_period",
      sql`select s.id, s.net + ${billOf} as expected, coalesce(sum(p.net), 0) as actual
          from statements s left join ledger_postings p on p.merchant_id = s.merchant_id
            and p.type in ${activityTypes} and ${monthOf("s.period")}
          where s.final ${ofMerchant("s.merchant_id")}
          group by s.id, s.net, s.merchant_id, s.period having coalesce(sum(p.net), 0) <> s.net + ${billOf}`,
    ],
    [
      "statement_fees_are_its_period",
      sql`select s.id, s.fees as expected, coalesce(sum(p.fee) filter (where p.type = 'charge'), 0)
                 - coalesce(sum(p.amount) filter (where p.type = 'dispute_fee'), 0) + ${billOf} as actual
          from statements s left join ledger_postings p on p.merchant_id = s.merchant_id
            and p.type in ('charge', 'dispute_fee') and ${monthOf("s.period")}
          where s.final ${ofMerchant("s.merchant_id")}
          group by s.id, s.fees, s.merchant_id, s.period
          having s.fees <> coalesce(sum(p.fee) filter (where p.type = 'charge'), 0)
                 - coalesce(sum(p.amount) filter (where p.type = 'dispute_fee'), 0) + ${billOf}`,
    ],
    // A month-end bill's total is what its postings took from the merchant.
    [
      "bill_is_its_postings",
      sql`select b.id, b.total as expected, 0 - coalesce(sum(p.amount), 0) as actual
          from merchant_bills b left join ledger_postings p on p.source_id = b.id and p.type = 'monthly_fee'
          where true ${ofMerchant("b.merchant_id")}
          group by b.id, b.total having b.total <> 0 - coalesce(sum(p.amount), 0)`,
    ],
  );
  queries.push([
    "checkpoint_is_its_entries",
    sql`select c.owner_id || ':' || c.account as id, c.amount as expected,
               coalesce((select sum(e.amount) from ledger_entries e
                         where e.owner_id = c.owner_id and e.account = c.account and e.id <= c.through_entry_id), 0) as actual
        from ledger_balance_checkpoints c
        where true ${ofMerchant("c.owner_id")}
          and c.amount <> coalesce((select sum(e.amount) from ledger_entries e
                                    where e.owner_id = c.owner_id and e.account = c.account and e.id <= c.through_entry_id), 0)`,
  ]);
  if (!merchantId)
    queries.push(
      [
        "clearing_holds_what_is_not_funded",
        sql`select a.account as id, coalesce(u.unfunded, 0) as expected, a.balance as actual from
              (select account, sum(amount) as balance from ledger_entries
               where owner_id is null and account in ('card_clearing', 'ach_clearing', 'dispute_clearing') group by account) a
            left join (select e.account, sum(e.amount) as unfunded from ledger_entries e join ledger_postings p on p.id = e.posting_id
               where p.settlement_id is null and e.owner_id is null group by e.account) u on u.account = a.account
            where a.balance <> coalesce(u.unfunded, 0)`,
      ],
      [
        "payout_clearing_holds_payouts_on_their_way",
        sql`select 'payout_clearing' as id, ${onTheirWay} as expected,
              (select coalesce(sum(amount), 0) from ledger_entries where owner_id is null and account = 'payout_clearing') as actual
            where ${onTheirWay}
               <> (select coalesce(sum(amount), 0) from ledger_entries where owner_id is null and account = 'payout_clearing')`,
      ],
    );
  const violations: LedgerViolation[] = [];
  for (const [invariant, query] of queries) {
    const rows = rowsOf<{ id: string; expected: string | number; actual: string | number }>(await db.execute(query));
    for (const row of rows)
      violations.push({ invariant, id: row.id, expected: Number(row.expected), actual: Number(row.actual) });
  }
  return violations;
}
