import { isEncrypted, mask } from "../crypto/field-encryption";
import { sensitivePaths } from "../schemas/merchant";

/** The application's sensitive fields (dotted paths): stored encrypted, shown masked, never logged. */
export const sensitive = new Set<string>(sensitivePaths);

/** The application as responses show it: sensitive values masked. */
export function maskApplication(value: unknown): unknown {
  if (isEncrypted(value)) return mask(value.last4);
  if (Array.isArray(value)) return value.map(maskApplication);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskApplication(v)]));
  return value;
}
