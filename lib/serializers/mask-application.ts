import { isEncrypted, mask } from "../crypto/field-encryption";
import { ownerKeys } from "../schemas/merchant";

/** The application's sensitive fields (dotted paths): stored encrypted, shown masked, never logged. */
export const sensitive = new Set(["tin", "bank_account.account_number", "bank_account.account_number_confirm", ...ownerKeys.map((o) => `${o}.ssn`)]);

/** The application as responses show it: sensitive values masked. */
export function maskApplication(value: unknown): unknown {
  if (isEncrypted(value)) return mask(value.last4);
  if (Array.isArray(value)) return value.map(maskApplication);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskApplication(v)]));
  return value;
}
