import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";

import { encryptField, isEncrypted, mask } from "../../crypto/field-encryption";
import type { FieldError } from "../../errors";
import { issuesToFieldErrors } from "../../errors";
import { completeApplicationSchema, maskedValue, ownerKeys } from "../../schemas/merchant";
import { maskApplication, sensitive } from "../../serializers/mask-application";

type Json = Record<string, unknown>;

const phones = new Set(["legal_phone", "business_phone", ...ownerKeys.map((o) => `${o}.contact_phone`)]);
const digitsOnly = new Set(["tin", ...ownerKeys.map((o) => `${o}.ssn`)]);

export function normalizePhone(value: string): string {
  return parsePhoneNumberFromString(value, "US")?.number ?? value;
}

export const phoneError = (param: string) => ({
  param,
  code: "parameter_invalid",
  message: `${param} must be a real phone number in E.164 (+14155550123) or a 10-digit US number`,
});

/** The number exists (valid area code and length for its country), not only looks like one. */
export const isRealPhone = (value: string) => isValidPhoneNumber(value, "US");

const isPlainObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !isEncrypted(v);

/** What the responses add to the application and a request may send back unchanged: never stored. */
const readOnly = new Set(["bank_account.instant_eligible"]);

/**
 * Merges a validated partial application into the stored one: objects merge, `null` removes,
 * phones become E.164, sensitive values are encrypted. A masked value sent back ("*****6789")
 * keeps the stored value; a mask that does not match it is an error (send the full value).
 */
export function mergeApplication(
  stored: Json,
  patch: Json,
  paramPrefix = "merchant",
): { next: Json; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const merge = (target: Json, source: Json, path: string[]): Json => {
    const out: Json = { ...target };
    for (const [key, value] of Object.entries(source)) {
      const p = [...path, key];
      const dotted = p.join(".");
      if (value === undefined || readOnly.has(dotted)) continue;
      if (value === null) {
        delete out[key];
      } else if (isPlainObject(value) && !sensitive.has(dotted)) {
        out[key] = merge(isPlainObject(out[key]) ? (out[key] as Json) : {}, value, p);
      } else if (sensitive.has(dotted) && typeof value === "string") {
        if (maskedValue.safeParse(value).success) {
          const current = out[key];
          if (!(isEncrypted(current) && mask(current.last4, value.length) === value)) {
            errors.push({
              param: `${paramPrefix}.${dotted}`,
              code: "parameter_invalid",
              message: `${paramPrefix}.${dotted}: send the full value (a masked value only keeps the one on file)`,
            });
          }
        } else {
          out[key] = encryptField(digitsOnly.has(dotted) ? value.replace(/-/g, "") : value);
        }
      } else if (phones.has(dotted) && typeof value === "string") {
        if (isRealPhone(value)) out[key] = normalizePhone(value);
        else errors.push(phoneError(`${paramPrefix}.${dotted}`));
      } else {
        out[key] = value;
      }
    }
    return out;
  };
  return { next: merge(stored, patch, []), errors };
}

/**
 * Every required field that is missing or invalid, as the contract's field errors (params like
 * `merchant.bank_account.routing_number`). Encrypted values were validated when saved.
 */
export function applicationProblems(stored: Json, paramPrefix = "merchant"): FieldError[] {
  const masked = maskApplication(stored);
  const result = completeApplicationSchema.safeParse(masked);
  if (result.success) return [];
  // With the input, a field that is absent is reported as missing ("is required"), whatever zod calls it.
  return issuesToFieldErrors(result.error.issues, [paramPrefix], masked).filter((e) => e.code !== "parameter_unknown");
}
