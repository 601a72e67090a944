import type { FieldError } from "../../errors";
import { type Cents, percentOf, percentToPpm } from "../../money";
import { requestTotal } from "../../payments/total";
import { MAX_TOTAL } from "../../schemas/money-fields";
import { type AmountsInput } from "../../schemas/payment-requests";

export type ResolvedAmounts = {
  /** The subtotal: the items' sum, or the amount given. */
  amount: Cents;
  tax: Cents;
  tip: Cents;
  total: Cents;
  items: AmountsInput["items"] | null;
  taxPercent: string | null;
};

/**
 * The contract's rules for what a customer is asked to pay (docs/reference.md section 10): the subtotal
 * is the items' sum (an `amount` also given must equal it), `taxPercent` sets the tax (half up; a
 * `tax` also given must equal it), and the total is at least 1 cent and at most 99,999,999 cents. Every problem is
 * listed, each naming its field.
 */
export function resolveAmounts(
  input: AmountsInput,
): { ok: true; value: ResolvedAmounts } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (param: string, message: string, code = "parameter_invalid") => errors.push({ param, code, message });
  let amount: Cents;
  if (input.items) {
    amount = input.items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
    if (input.amount !== undefined && input.amount !== amount) {
      fail(
        "amount",
        `amount (${input.amount}) must equal the sum of the items (${amount}); omit it when sending items`,
      );
    }
  } else if (input.amount === undefined) {
    fail("amount", "amount is required when no items are given", "parameter_missing");
    amount = 0;
  } else {
    amount = input.amount;
  }
  // `taxPercent` (the reference's name) or `tax_percent` (the answer's): one rate, said once or twice alike.
  const taxPercent = input.taxPercent ?? input.tax_percent;
  if (
    input.taxPercent !== undefined &&
    input.tax_percent !== undefined &&
    percentToPpm(input.taxPercent) !== percentToPpm(input.tax_percent)
  )
    fail(
      "tax_percent",
      `tax_percent (${input.tax_percent}) and taxPercent (${input.taxPercent}) are one rate: send one, or both alike`,
    );
  let tax = input.tax ?? 0;
  if (taxPercent !== undefined && amount <= MAX_TOTAL) {
    const computed = percentOf(amount, percentToPpm(taxPercent));
    if (input.tax !== undefined && input.tax !== computed) {
      fail(
        "tax",
        `tax (${input.tax}) must equal ${computed}, ${taxPercent} % of ${amount}; omit it when sending taxPercent`,
      );
    }
    tax = computed;
  }
  const tip = input.tip ?? 0;
  const total = requestTotal({ amount, tax, tip });
  if (errors.length === 0 && total > MAX_TOTAL) {
    fail(
      input.items ? "items" : "amount",
      `the total (amount + tax + tip = ${total}) must be at most ${MAX_TOTAL} cents`,
    );
  }
  // A $0 "payment" is a card check that proves a card works: card testers' favourite (docs/reference.md section 10).
  if (errors.length === 0 && total === 0) {
    fail(input.items ? "items" : "amount", "the total (amount + tax + tip) must be at least 1 cent");
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: { amount, tax, tip, total, items: input.items ?? null, taxPercent: taxPercent ?? null },
  };
}
