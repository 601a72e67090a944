import { type Cents, dollarsToCents } from "../money";
import { abaChecksumValid } from "../schemas/aba";
import { ownerKeys } from "../schemas/application-rules";

// The rules that span several fields, applied alike by the wizard (as the merchant types, in the
// browser: nothing here may import server code) and by underwriting (after submission). Each
// returns the stable code both report, which the wizard translates under `underwriting.<code>`.

export type CrossFieldCode =
  | "routing_number_invalid"
  | "account_number_mismatch"
  | "ownership_over_100"
  | "ownership_under_25"
  | "sales_mix_not_100"
  | "average_above_highest";

type Loose = Record<string, unknown> | null | undefined;

export function routingNumberProblem(routing: unknown): CrossFieldCode | null {
  return abaChecksumValid(String(routing ?? "")) ? null : "routing_number_invalid";
}

/** The account number typed twice must match. */
export function accountConfirmationProblem(bank: Loose): CrossFieldCode | null {
  return bank?.account_number === bank?.account_number_confirm ? null : "account_number_mismatch";
}

/** The listed owners' percentages added up. */
export function ownershipTotal(application: Loose, owners: readonly string[] = ownerKeys): number {
  return owners.reduce((sum, k) => sum + (Number((application?.[k] as Loose)?.ownership_percentage ?? 0) || 0), 0);
}

/** At most 100 %; at least 25 % unless the business type has no owners to list (docs/reference.md section 7). */
export function ownershipProblem(
  total: number,
  businessType: unknown,
  options: { requireQuarter: boolean },
): CrossFieldCode | null {
  if (total > 100) return "ownership_over_100";
  if (
    options.requireQuarter &&
    total < 25 &&
    businessType !== "Tax Exempt Org" &&
    businessType !== "Association/State & Trust"
  )
    return "ownership_under_25";
  return null;
}

export const salesMixParts = [
  "card_swipe_percentage",
  "online_percentage",
  "keyed_percentage",
  "moto_percentage",
] as const;

export function salesMixTotal(mix: Loose): number {
  return salesMixParts.reduce((sum, p) => sum + (Number(mix?.[p] ?? 0) || 0), 0);
}

export function salesMixProblem(mix: Loose): CrossFieldCode | null {
  return Math.abs(salesMixTotal(mix) - 100) < 0.001 ? null : "sales_mix_not_100";
}

const cents = (value: unknown): Cents | null => {
  try {
    return dollarsToCents(String(value ?? ""));
  } catch {
    return null; // not an amount yet: the field's own check reports it
  }
};

/** The average sale cannot exceed the largest one (compared in cents, exactly). */
export function ticketProblem(sales: Loose): CrossFieldCode | null {
  const average = cents(sales?.average_ticket_value);
  const highest = cents(sales?.highest_amount_to_date);
  return average !== null && highest !== null && average > highest ? "average_above_highest" : null;
}

/** The routing number's ABA checksum: checked by underwriting, and reported at once in `requirements`. */
export function routingNumberFinding(routing: unknown): { field: string; code: string; message: string } | null {
  if (!routingNumberProblem(routing as string | undefined)) return null;
  return {
    field: "merchant.bank_account.routing_number",
    code: "routing_number_invalid",
    message:
      "The routing number does not pass the ABA checksum. Compare it with a check from the account or with your bank's website.",
  };
}
