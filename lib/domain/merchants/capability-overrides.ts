import type { FieldError } from "../../errors";

// docs/reference.md section 4: a merchant may override only these ACH options (fees are limited by the
// Fees schema itself, which knows only its two fields).
export const overridableAchOptions = ["monthly_fee", "txn_fee_fixed", "txn_fee_percent"] as const;

export function capabilityOverrideErrors(
  merchant: Record<string, unknown> | undefined,
  prefix = "merchant",
): FieldError[] {
  const ach = (merchant?.capabilities as { options?: { ach?: Record<string, unknown> } } | undefined)?.options?.ach;
  if (!ach) return [];
  return Object.keys(ach)
    .filter((k) => !(overridableAchOptions as readonly string[]).includes(k))
    .map((k) => ({
      param: `${prefix}.capabilities.options.ach.${k}`,
      code: "override_not_allowed",
      message: `${prefix}.capabilities.options.ach.${k} cannot be overridden for a merchant: only ${overridableAchOptions.join(", ")} can`,
    }));
}
