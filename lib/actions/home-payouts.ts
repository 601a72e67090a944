"use server";
import { revalidatePath } from "next/cache";

import { changeScheduleFromHome, instantFromHome, payOutFromHome } from "@/lib/domain/home/payouts";
import { invalid } from "@/lib/errors";
import { asMerchant } from "@/lib/home/session";
import { typedDollarsToCents } from "@/lib/money";

import { attempt, problemsOf } from "./result";
import { scheduleFromForm } from "./schedule-form";

// The home's payouts page (docs/reference.md section 20): the merchant's schedule, when its ISV
// allows it, and "pay out now". Each answer is done, or each problem by its field.

export type PayoutFormResult = { ok: true; amount?: number } | { ok: false; errors: { param: string; code: string }[] };

const refused = (done: Parameters<typeof problemsOf>[0]): PayoutFormResult => ({
  ok: false,
  errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })),
});

/** The schedule form: interval, its anchor, the delay and the minimum in dollars. */
export async function homeScheduleAction(input: unknown): Promise<PayoutFormResult> {
  return asMerchant(async ({ db, merchant, isv }) => {
    const done = await attempt(() => changeScheduleFromHome(db, merchant, isv, scheduleFromForm(input)));
    if (!done.ok) return refused(done);
    revalidatePath("/home/payouts");
    return { ok: true };
  });
}

/** "Pay out now": `amount` in dollars as typed (the amount the merchant confirmed). */
export async function homePayOutAction(input: unknown): Promise<PayoutFormResult> {
  return asMerchant(async ({ db, merchant }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const typed = typeof raw.amount === "string" ? raw.amount.trim() : "";
    const done = await attempt(async () => {
      const amount = typed === "" ? undefined : typedDollarsToCents(typed);
      if (amount === null || amount === 0) throw invalid("amount", "The amount is in dollars, such as 50.00");
      return payOutFromHome(db, merchant, amount);
    });
    if (!done.ok) return refused(done);
    revalidatePath("/home/payouts");
    return { ok: true, amount: done.value.amount };
  });
}

/**
 * The home's instant payout: `amount` in dollars as confirmed, and the merchant's acknowledgement
 * that an instant payout cannot be reversed (refused without it).
 */
export async function homeInstantPayoutAction(input: unknown): Promise<PayoutFormResult> {
  return asMerchant(async ({ db, merchant }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const typed = typeof raw.amount === "string" ? raw.amount.trim() : "";
    const done = await attempt(async () => {
      if (raw.irreversible !== true)
        throw invalid("irreversible", "Confirm that you read that an instant payout cannot be reversed");
      const amount = typedDollarsToCents(typed);
      if (amount === null || amount === 0) throw invalid("amount", "The amount is in dollars, such as 50.00");
      const rail = raw.rail === "rtp" || raw.rail === "push_to_card" ? raw.rail : undefined;
      return instantFromHome(db, merchant, amount, rail);
    });
    if (!done.ok) return refused(done);
    revalidatePath("/home/payouts");
    return { ok: true, amount: done.value.amount };
  });
}
