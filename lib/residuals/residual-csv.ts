import { stringify } from "csv-stringify/sync";

import type { ResidualLineRow, ResidualRow } from "../db/schema";
import { centsToDecimal, neutraliseFormula } from "../statements/statement-csv";

/**
 * A residual as CSV (docs/reference.md section 19), from the same rows as its PDF: one row per
 * merchant, then what the month before carried in and the adjustments, so the `amount` column adds
 * up to the residual's amount. Dollars with two decimals.
 */
export function residualCsv(residual: ResidualRow, lines: readonly (ResidualLineRow & { business: string })[]) {
  const money = centsToDecimal;
  const row = (type: string, l: Partial<ResidualLineRow> & { business?: string }, amount: number) => [
    type,
    residual.id,
    residual.period,
    l.merchantId ?? "",
    l.business ?? "",
    l.volume === undefined ? "" : money(l.volume),
    l.count === undefined ? "" : String(l.count),
    l.merchantFees === undefined ? "" : money(l.merchantFees),
    l.costs === undefined ? "" : money(l.costs),
    l.margin === undefined ? "" : money(l.margin),
    l.share === undefined ? "" : money(l.share),
    l.platformFees === undefined ? "" : money(l.platformFees),
    money(amount),
  ];
  return stringify([
    [
      "type",
      "residual_id",
      "period",
      "merchant_id",
      "business_name",
      "volume",
      "count",
      "merchant_fees",
      "costs",
      "margin",
      "share",
      "platform_fees",
      "amount",
    ],
    ...[
      ...lines.map((l) => row("merchant", l, l.amount)),
      ...(residual.carriedIn !== 0 ? [row("carried_in", {}, residual.carriedIn)] : []),
      ...(residual.adjustments !== 0 ? [row("adjustments", {}, residual.adjustments)] : []),
    ].map((r) => r.map((v) => neutraliseFormula(String(v)))),
  ]);
}
