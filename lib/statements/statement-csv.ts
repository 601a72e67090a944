import { stringify } from "csv-stringify/sync";

import type { StatementRow } from "../db/schema";

/** Cents as a decimal amount of dollars, exactly ("-5.00", "1234.56"). */
export function centsToDecimal(cents: number) {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is written
 * with a leading apostrophe; numbers stay numbers.
 */
export function neutraliseFormula(value: string) {
  return /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}

/**
 * Every charge, refund and ACH return of the statement, one per row (refunds and returns negative,
 * reversed returns positive, the fees of each charge beside it), each dispute taken in the month
 * (negative) and won back in it (positive), then one row per fee charged for the month as a whole
 * (the dispute fees among them) (ACH returns, batches, monthly fees, the minimum's top-up), at the period's last
 * instant, and the ISV's platform fees of the month (named for the ISV). The net column adds up to the
 * statement's net, the fee column to its fees.
 */
export function statementCsv(row: StatementRow, isvName: string) {
  const records = row.items.map((item) => {
    const amount = item.kind === "charge" || item.kind === "return_reversal" ? item.amount : -item.amount;
    return [
      item.kind,
      item.id,
      item.charge_id,
      item.created_at,
      centsToDecimal(amount),
      centsToDecimal(item.fee),
      centsToDecimal(amount - item.fee),
      item.card_brand ?? "",
      item.card_last_4 ?? "",
      item.card_entry_method ?? "",
      "",
    ];
  });
  const dispute = (kind: string, d: (typeof row.disputes)[number], at: string, amount: number) => [
    kind,
    d.id,
    d.charge_id,
    at,
    centsToDecimal(amount),
    "0.00",
    centsToDecimal(amount),
    "",
    "",
    "",
    "",
  ];
  const disputes = row.disputes.flatMap((d) => [
    ...(d.opened_in_period ? [dispute("dispute", d, d.created_at, -d.amount)] : []),
    ...(d.won_in_period ? [dispute("dispute_won", d, d.closed_at ?? d.created_at, d.amount)] : []),
  ]);
  const [year, month] = row.period.split("-").map(Number) as [number, number];
  const lastInstant = new Date(Date.UTC(year, month, 1) - 1).toISOString();
  const monthFees = row.feeLines
    .filter((line) => line.kind !== "processing")
    .map((line) => [
      "fee",
      "",
      "",
      lastInstant,
      "0.00",
      centsToDecimal(line.amount),
      centsToDecimal(-line.amount),
      "",
      "",
      "",
      line.count > 1 ? `${line.description} (${line.count})` : line.description,
    ]);
  // The ISV's platform fees of the month (section 19), one row named for the ISV.
  const platformFees =
    row.platformFees !== 0
      ? [
          [
            "platform_fee",
            "",
            "",
            lastInstant,
            centsToDecimal(-row.platformFees),
            "0.00",
            centsToDecimal(-row.platformFees),
            "",
            "",
            "",
            `${isvName} fee`,
          ],
        ]
      : [];
  return stringify([
    [
      "type",
      "id",
      "charge_id",
      "created_at",
      "amount",
      "fee",
      "net",
      "card_brand",
      "card_last_4",
      "card_entry_method",
      "description",
    ],
    ...[...records, ...disputes, ...platformFees, ...monthFees].map((r) => r.map((v) => neutraliseFormula(String(v)))),
  ]);
}
