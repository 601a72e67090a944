import { and, eq, inArray, isNotNull, ne } from "drizzle-orm";

import { forgetCustomDomains } from "../../branding/hosts";
import { clock } from "../../clock";
import { one } from "../../db/one";
import { accounts, merchants } from "../../db/schema";
import { type Db, type Tx } from "../../db/types";
import { AppError, invalidFields } from "../../errors";
import { issuesToFieldErrors } from "../../errors";
import { randomBase62 } from "../../ids";
import {
  type AccountSettings,
  accountSettingsSchema,
  type MerchantDefaults,
  merchantDefaultsSchema,
  settingsWithDefaults,
  type UpdateAccount,
} from "../../schemas/account";
import { type DefaultCapabilities, defaultCapabilitiesSchema } from "../../schemas/capabilities";
import { type PlatformFeeRule } from "../../schemas/platform-fees";
import { recordAudit } from "../audit/record-audit";
import { getAccount } from "./get-account";
import { assertMayChangePayoutAccount, type PayoutAccountCaller } from "./payout-account-change";
import { setPayoutBankAccount } from "./payout-bank-account";

/**
 * Merges `patch` into the ISV's settings, validates the result whole, and saves it. A new payout bank
 * account only from a caller who may give one (payout-account-change.ts): refused before anything is written.
 */
export async function updateAccount(db: Db, accountId: string, patch: UpdateAccount, caller: PayoutAccountCaller) {
  if (patch.payout_bank_account) assertMayChangePayoutAccount(caller);
  return db.transaction(async (tx) => {
    // A change of the payout bank account reads the account as it was under its row lock (two racing
    // changes: the second sees the first's account, and is held as a change).
    if (patch.payout_bank_account)
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const current = await getAccount(tx, accountId);
    const defaults = dropNulls({ ...(current.defaults ?? {}), ...(patch.defaults ?? {}) });
    const currentCaps = (current.defaultCapabilities ?? {}) as { types?: unknown; options?: Record<string, object> };
    const options: Record<string, object> = { ...(currentCaps.options ?? {}) };
    for (const [model, values] of Object.entries(patch.default_capabilities?.options ?? {})) {
      options[model] = { ...(options[model] ?? {}), ...(values ?? {}) };
    }
    const capabilities = { types: patch.default_capabilities?.types ?? currentCaps.types, options };
    const stored = current.settings ?? {};
    const settings = settingsWithDefaults({
      ...stored,
      ...(patch.settings ?? {}),
      // The rules given change; the others keep the ISV's choice.
      risk_actions: { ...settingsWithDefaults(stored).risk_actions, ...(patch.settings?.risk_actions ?? {}) },
    });

    const errors = [
      ...issuesToFieldErrors(merchantDefaultsSchema.safeParse(defaults).error?.issues ?? [], ["defaults"]),
      ...issuesToFieldErrors(defaultCapabilitiesSchema.safeParse(capabilities).error?.issues ?? [], [
        "default_capabilities",
      ]),
      ...issuesToFieldErrors(accountSettingsSchema.safeParse(settings).error?.issues ?? [], ["settings"]),
    ];
    if (errors.length) throw invalidFields(errors);
    await assertOwnMerchants(tx, accountId, patch.settings?.platform_fee_rules ?? []);

    const customDomain = (defaults.custom_domain as string | undefined) ?? null;
    const changed = customDomain !== current.customDomain;
    if (customDomain && changed) {
      // Asking for a domain is free; a domain another account has verified is theirs.
      const [taken] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(
            eq(accounts.customDomain, customDomain),
            ne(accounts.id, accountId),
            isNotNull(accounts.customDomainVerifiedAt),
          ),
        );
      if (taken) {
        throw new AppError("custom_domain_taken", `${customDomain} is already used by another account`, {
          param: "defaults.custom_domain",
        });
      }
    }
    const updated = one(
      await tx
        .update(accounts)
        .set({
          // Each validated just above with its schema.
          defaults: defaults as MerchantDefaults,
          defaultCapabilities: capabilities as DefaultCapabilities,
          settings: settings as AccountSettings,
          customDomain,
          ...(patch.api_version ? { apiVersion: patch.api_version } : {}),
          // A new domain serves nothing until its TXT record proves the ISV controls it (verify-custom-domain.ts).
          ...(changed
            ? { customDomainToken: customDomain ? randomBase62(32) : null, customDomainVerifiedAt: null }
            : {}),
          updatedAt: clock.now(),
        })
        .where(eq(accounts.id, accountId))
        .returning(),
    );
    if (patch.payout_bank_account)
      // The account as it was: a hold set to 0 in the same request does not shorten this change's hold.
      await setPayoutBankAccount(tx, current, patch.payout_bank_account, caller.kind === "user" ? caller.userId : null);
    await recordAudit(tx, {
      accountId,
      action: "account.updated",
      resourceId: accountId,
      fields: Object.entries(patch).flatMap(([key, value]) =>
        typeof value === "object" && value ? Object.keys(value).map((sub) => `${key}.${sub}`) : [key],
      ),
    });
    if (changed) forgetCustomDomains();
    return patch.payout_bank_account ? getAccount(tx, accountId) : updated;
  });
}

function dropNulls(value: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/** A platform fee rule names only the ISV's own merchants (another's, or a typo, would never match: 400). */
async function assertOwnMerchants(tx: Tx, isvAccountId: string, rules: readonly PlatformFeeRule[]) {
  const named = [...new Set(rules.flatMap((rule) => rule.match.merchant_ids ?? []))];
  if (named.length === 0) return;
  const found = new Set(
    (
      await tx
        .select({ id: merchants.id })
        .from(merchants)
        .where(and(eq(merchants.isvAccountId, isvAccountId), inArray(merchants.id, named)))
    ).map((m) => m.id),
  );
  const errors = rules.flatMap((rule, i) =>
    (rule.match.merchant_ids ?? []).flatMap((id, j) =>
      found.has(id)
        ? []
        : [
            {
              param: `settings.platform_fee_rules[${i}].match.merchant_ids[${j}]`,
              code: "resource_missing",
              message: `No such merchant: '${id}'`,
            },
          ],
    ),
  );
  if (errors.length) throw invalidFields(errors);
}
