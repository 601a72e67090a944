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

/** Every charge, refund and ACH return of the statement, one per row: refunds and returns negative, reversed returns positive, fees of the charge. */
export function statementCsv(row: StatementRow) {
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
    ].map((v) => neutraliseFormula(String(v)));
  });
  return stringify([
    ["type", "id", "charge_id", "created_at", "amount", "fee", "net", "card_brand", "card_last_4", "card_entry_method"],
    ...records,
  ]);
}
