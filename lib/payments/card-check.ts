import cardValidator from "card-validator";

import { brandName } from "./brands";

// The checks on a typed card (docs/reference.md section 10), in one place for the tokenizer frame (in the
// browser) and POST /v1/tokens (on the server): Luhn and length per brand, the brand, an expiry in
// the future, the CVC's length for the brand. card-validator does the card rules.

export type CardInput = { number: string; exp_month: string | number; exp_year: string | number; cvc: string };
export type CardProblem = {
  field: "number" | "exp_month" | "exp_year" | "cvc";
  code: "invalid_number" | "invalid_expiry" | "expired" | "invalid_cvc";
};
export type CheckedCard = {
  number: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cvc: string;
};

const brandNames: Record<string, string> = {
  "american-express": "amex",
  "diners-club": "diners",
  "master-card": "mastercard",
};

/** The brand as the API writes it: visa, mastercard, amex, discover, diners, jcb, unionpay... */
export const brandOf = (type: string) => brandNames[type] ?? type;

/**
 * The network of a card number as far as it is typed, once its first digits say it (42 → Visa, 34 →
 * American Express, 5 alone could be Mastercard or another: nothing yet); null when they do not.
 */
export function typedCardNetwork(typed: string): string | null {
  const digits = typed.replace(/\D/g, "");
  if (!digits) return null;
  const checked = cardValidator.number(digits, { maxLength: 19 });
  return checked.isPotentiallyValid && checked.card ? brandName(brandOf(checked.card.type)) : null;
}

/** `cardPresent`: read by a terminal (no CVC typed). */
export function checkCard(
  input: CardInput,
  now = new Date(),
  options: { cardPresent?: boolean } = {},
): { ok: true; card: CheckedCard } | { ok: false; problems: CardProblem[] } {
  const problems: CardProblem[] = [];
  const number = String(input.number).replace(/[\s-]/g, "");
  const checked = cardValidator.number(number, { maxLength: 19 });
  if (!/^\d{12,19}$/.test(number) || !checked.isValid || !checked.card)
    problems.push({ field: "number", code: "invalid_number" });

  const month = Number(input.exp_month);
  let year = Number(input.exp_year);
  if (Number.isInteger(year) && String(input.exp_year).length === 2) year += 2000;
  const validMonth = Number.isInteger(month) && month >= 1 && month <= 12;
  const validYear = Number.isInteger(year) && year >= 2000 && year <= 2100;
  if (!validMonth) problems.push({ field: "exp_month", code: "invalid_expiry" });
  if (!validYear) problems.push({ field: "exp_year", code: "invalid_expiry" });
  if (validMonth && validYear) {
    // A card is good through the last day of its expiry month.
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (year * 12 + (month - 1) < thisMonth) problems.push({ field: "exp_month", code: "expired" });
    else if (year > now.getUTCFullYear() + 20) problems.push({ field: "exp_year", code: "invalid_expiry" });
  }
  const cvcSize = checked.card?.code.size ?? 3;
  if (!options.cardPresent && !new RegExp(`^\\d{${cvcSize}}$`).test(String(input.cvc)))
    problems.push({ field: "cvc", code: "invalid_cvc" });

  if (problems.length || !checked.card) return { ok: false, problems };
  return {
    ok: true,
    card: {
      number,
      brand: brandOf(checked.card.type),
      last4: number.slice(-4),
      expMonth: month,
      expYear: year,
      cvc: String(input.cvc),
    },
  };
}
