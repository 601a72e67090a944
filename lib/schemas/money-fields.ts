import { z } from "zod";

// Amounts in payment bodies: integer cents, with a ceiling (docs/reference.md, money).

/** The largest total (amount + tax + tip) a request may ask for, in cents. */
export const MAX_TOTAL = 99_999_999;

export const cents = (what: string) =>
  z
    .number()
    .int(`${what} must be a whole number of cents`)
    .min(0, `${what} must not be negative`)
    .max(MAX_TOTAL, `${what} is too large`);
