import { z } from "zod";

import { mask } from "../crypto/field-encryption";
import type { MerchantRow } from "../db/schema";
import { instantRail } from "../payouts/instant-rail";
import { applicationShape } from "../schemas/merchant";
import type { merchantResponseSchema } from "../schemas/merchant-response";
import type { PayoutSchedule } from "../schemas/payout-schedule";
import { serializeCheck } from "../verification/checks";
import { maskApplication } from "./mask-application";

type Json = Record<string, unknown>;

/** Required fields without a value yet are present as null; optional ones are left out (docs/reference.md section 4). */
function withNulls(shape: Record<string, z.ZodType>, value: Json): Json {
  const out: Json = {};
  for (const [key, schema] of Object.entries(shape)) {
    const optional = schema instanceof z.ZodOptional;
    const inner = (optional ? (schema as z.ZodOptional<z.ZodType>).unwrap() : schema) as z.ZodType;
    const v = value[key];
    if (v === undefined || v === null) {
      if (!optional) out[key] = null;
    } else if (inner instanceof z.ZodObject && typeof v === "object") {
      out[key] = withNulls(inner.shape as Record<string, z.ZodType>, v as Json);
    } else out[key] = v;
  }
  // Keep fields that are set but not in the reference's shape (none today; future-proof).
  for (const [key, v] of Object.entries(value)) if (!(key in out) && !(key in shape) && v !== undefined) out[key] = v;
  return out;
}

export type MerchantJson = z.infer<typeof merchantResponseSchema>;

/**
 * The merchant as the API and its events show it: a function of the row, its ISV's defaults and
 * what it still has to supply (computed by the domain: `requirementsFor` in lib/domain/merchants/requirements.ts)
 * and its payout settings (lib/domain/payouts/settings.ts).
 */
export function serializeMerchant(
  row: MerchantRow,
  isv: { defaults: unknown },
  requirements: MerchantJson["requirements"],
  payouts: { automatic: boolean; schedule: PayoutSchedule },
): MerchantJson {
  const keys = row.paymentKeys;
  return {
    object: "merchant" as const,
    id: row.id,
    phone: row.phone,
    automatic_payouts: payouts.automatic,
    payout_schedule: payouts.schedule,
    deactivated: row.deactivated,
    created_at: row.createdAt.toISOString(),
    lead_id: row.leadId,
    lead_onboarding_status: row.status,
    // The stored application, masked, with the reference's required fields present (null when not given yet).
    merchant: withInstantEligibility(
      withNulls(
        applicationShape as unknown as Record<string, z.ZodType>,
        maskApplication(row.application) as Json,
      ) as MerchantJson["merchant"],
    ),
    payment: { tokenizer_publishable_key: row.payment.tokenizer_publishable_key, terminal_id: row.payment.terminal_id },
    defaults: isv.defaults as MerchantJson["defaults"],
    default_capabilities: row.defaultCapabilities,
    payment_keys: {
      pub_api_key: keys?.pub_api_key ?? null,
      api_key: keys?.api_key_last4 ? mask(keys.api_key_last4, 32) : null,
      gateway_merchant_id: keys?.gateway_merchant_id ?? null,
      processors: keys?.processors ?? [],
    },
    ...(row.deviceId
      ? {
          device: {
            id: row.deviceId,
            imei: row.deviceImei,
            imei_status: row.deviceImeiStatus ?? "UNKNOWN",
            catalog_id: row.deviceCatalogId,
            created_at: row.deviceCreatedAt?.toISOString() ?? null,
            updated_at: row.deviceUpdatedAt?.toISOString() ?? null,
          },
        }
      : {}),
    device_selection: row.deviceSelection,
    agent: row.agent,
    verification: row.verification.map(serializeCheck),
    requirements,
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The bank account with `instant_eligible`: whether instant payouts can reach its bank (RTP or
 * FedNow, decided by its routing number when it is linked; docs/reference.md section 20).
 */
function withInstantEligibility<T extends { bank_account?: unknown }>(merchant: T): T {
  const bank = merchant.bank_account as { routing_number?: string | null } | null | undefined;
  if (!bank || typeof bank !== "object") return merchant;
  return { ...merchant, bank_account: { ...bank, instant_eligible: instantRail().reachable(bank.routing_number) } };
}
