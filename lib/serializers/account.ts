import type { z } from "zod";

import { customDomainRecord } from "../branding/hosts";
import type { AccountRow } from "../db/schema";
import { type accountSchema, settingsWithDefaults } from "../schemas/account";
import { defaultCostProfile } from "../schemas/cost-profile";
import { serializePayoutBankAccount } from "./payout-bank-account";

type AccountJson = z.infer<typeof accountSchema>;

/** The JSON columns hold what PATCH /v1/account validated with the same schemas. */
/** `payouts`: the account's payout settings (lib/domain/payouts/settings.ts), whether its payouts are frozen. */
export function serializeAccount(row: AccountRow, payouts: { frozenAt: Date | null }): AccountJson {
  return {
    object: "account",
    id: row.id,
    type: row.type,
    account_sid: row.sid,
    name: row.name,
    defaults: row.defaults as AccountJson["defaults"],
    default_capabilities: row.defaultCapabilities as AccountJson["default_capabilities"],
    // Settings saved before a field existed have its default.
    settings: (row.settings ? settingsWithDefaults(row.settings) : row.settings) as AccountJson["settings"],
    custom_domain_verification: customDomainVerification(row),
    cost_profile: row.type === "isv" ? (row.costProfile ?? defaultCostProfile) : null,
    api_version: row.apiVersion,
    payout_bank_account: serializePayoutBankAccount(row.payoutBankAccount),
    payouts_frozen_at: payouts.frozenAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export function customDomainVerification(row: AccountRow): AccountJson["custom_domain_verification"] {
  const record = customDomainRecord(row);
  if (!record || !row.customDomain) return null;
  return {
    domain: row.customDomain,
    status: row.customDomainVerifiedAt ? "verified" : "pending",
    record,
    verified_at: row.customDomainVerifiedAt?.toISOString() ?? null,
  };
}
