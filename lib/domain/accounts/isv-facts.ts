import type { AccountRow } from "../../db/schema";
import { type AccountSettings, type MerchantDefaults, settingsWithDefaults } from "../../schemas/account";
import type { DefaultCapabilities } from "../../schemas/capabilities";
import { type CostProfile, defaultCostProfile } from "../../schemas/cost-profile";

// An ISV always has its branding, pricing and settings (create-isv writes them, PATCH /v1/account
// validates every change); other accounts have none. These read them from an ISV's row, and fail
// loudly if handed another kind of account (a bug, not a request to answer).

function required<T>(value: T | null, account: Pick<AccountRow, "id">, what: string): T {
  if (value === null) throw new Error(`account ${account.id} has no ${what}: not an ISV`);
  return value;
}

/** The ISV's branding (`defaults`): display name, logo, colours, support, custom domain. */
export const brandOf = (isv: Pick<AccountRow, "id" | "defaults">): MerchantDefaults =>
  required(isv.defaults, isv, "defaults");
/** The ISV's settings: notifications, link lifetime, devices. */
export const settingsOf = (isv: Pick<AccountRow, "id" | "settings">): AccountSettings =>
  settingsWithDefaults(required(isv.settings, isv, "settings"));
/** The fee a dispute of one of the ISV's merchants costs, in cents (settings saved before it existed: the default). */
export const disputeFeeOf = (isv: Pick<AccountRow, "id" | "settings">): number => settingsOf(isv).dispute_fee;
/** Business days a bank account entered after approval waits, once verified, before payouts reach it. */
export const newBankAccountHoldDaysOf = (isv: Pick<AccountRow, "id" | "settings">): number =>
  settingsOf(isv).new_bank_account_hold_days;
/** The ISV's pricing (`default_capabilities`), copied into each new merchant. */
export const pricingOf = (isv: Pick<AccountRow, "id" | "defaultCapabilities">): DefaultCapabilities =>
  required(isv.defaultCapabilities, isv, "default_capabilities");
/** What the platform charges the ISV (docs/reference.md section 19): its own profile, or the contract's defaults. */
export const costProfileOf = (isv: Pick<AccountRow, "costProfile">): CostProfile =>
  isv.costProfile ?? defaultCostProfile;
/** The ISV's platform fee rules (first match wins) and what a refund does with the fee (section 19). */
export const platformFeeSettingsOf = (isv: Pick<AccountRow, "id" | "settings">) => {
  const settings = settingsOf(isv);
  return { rules: settings.platform_fee_rules, refund: settings.platform_fee_refund };
};
