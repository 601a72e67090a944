"use server";
import { revalidatePath } from "next/cache";

import { asIsvUser } from "@/lib/dashboard/session";
import { updateAccount } from "@/lib/domain/accounts/update-account";
import { invalid } from "@/lib/errors";
import { typedDollarsToCents } from "@/lib/money";

import { attempt, problemsOf } from "./result";

// The dashboard settings' "Money out" section (docs/reference.md section 20): whether merchants may
// change their payout schedule, and instant payouts (on, the markup, the fallback, the daily limit),
// by `PATCH /v1/account`'s rules.

export type MoneyOutResult = { ok: true } | { ok: false; errors: { param: string; code: string }[] };

export async function moneyOutSettingsAction(input: unknown): Promise<MoneyOutResult> {
  return asIsvUser("account:write", async ({ db, account, userId, signedInAt, role }) => {
    const form = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
    const done = await attempt(async () => {
      // The markup in percent with two decimals at most (0.25 → 25 bps); the limit in dollars.
      const markup = text(form.markup_percent) === "" ? 0 : Number(text(form.markup_percent).replace(",", "."));
      const bps = Math.round(markup * 100);
      if (!Number.isFinite(markup) || Math.abs(markup * 100 - bps) > 1e-9)
        throw invalid("settings.instant_payout_markup_bps", "The markup is a percent with two decimals at most");
      const limit = typedDollarsToCents(text(form.daily_limit));
      if (limit === null)
        throw invalid("settings.instant_payout_daily_limit", "The daily limit is an amount in dollars");
      return updateAccount(
        db,
        account.id,
        {
          settings: {
            merchant_can_change_schedule: form.merchant_can_change_schedule === true,
            instant_payouts_enabled: form.instant_payouts_enabled === true,
            instant_payout_markup_bps: bps,
            instant_payout_fallback: form.instant_payout_fallback === "standard" ? "standard" : "return",
            instant_payout_daily_limit: limit,
          },
        },
        { kind: "user", userId, signedInAt, role },
      );
    });
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath("/dashboard/settings");
    return { ok: true };
  });
}
