"use server";
import { revalidatePath } from "next/cache";

import { changeScheduleFromHome, payOutFromHome } from "@/lib/domain/home/payouts";
import { invalid } from "@/lib/errors";
import { asMerchant } from "@/lib/home/session";
import { typedDollarsToCents } from "@/lib/money";
import { payoutScheduleChangeSchema } from "@/lib/schemas/payout-schedule";

import { attempt, problemsOf } from "./result";

// The home's payouts page (docs/reference.md section 20): the merchant's schedule, when its ISV
// allows it, and "pay out now". Each answer is done, or each problem by its field.

export type HomePayoutResult = { ok: true; amount?: number } | { ok: false; errors: { param: string; code: string }[] };

const record = (input: unknown) => (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
const text = (raw: Record<string, unknown>, key: string) => (typeof raw[key] === "string" ? raw[key].trim() : "");
/** Whole numbers as typed ("3"), else NaN (refused by the schema with the field's name). */
const whole = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN);

/** The schedule form: interval, its anchor, the delay and the minimum in dollars. */
export async function homeScheduleAction(input: unknown): Promise<HomePayoutResult> {
  return asMerchant(async ({ db, merchant, isv }) => {
    const raw = record(input);
    const done = await attempt(async () => {
      const interval = text(raw, "interval");
      const minimum = text(raw, "minimum_amount");
      const minimumCents = minimum === "" ? 0 : typedDollarsToCents(minimum);
      if (minimumCents === null)
        throw invalid("payout_schedule.minimum_amount", "The minimum is an amount in dollars, such as 50.00");
      const parsed = payoutScheduleChangeSchema.safeParse({
        interval,
        ...(interval === "weekly" ? { weekly_anchor: text(raw, "weekly_anchor") } : {}),
        ...(interval === "monthly" ? { monthly_anchor: whole(text(raw, "monthly_anchor")) } : {}),
        delay_days: whole(text(raw, "delay_days")),
        minimum_amount: minimumCents,
      });
      if (!parsed.success)
        throw invalid(`payout_schedule.${String(parsed.error.issues[0]?.path[0] ?? "interval")}`, "Not a valid value");
      await changeScheduleFromHome(db, merchant, isv, parsed.data);
    });
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath("/home/payouts");
    return { ok: true };
  });
}

/** "Pay out now": `amount` in dollars as typed, or everything available when empty. */
export async function homePayOutAction(input: unknown): Promise<HomePayoutResult> {
  return asMerchant(async ({ db, merchant }) => {
    const typed = text(record(input), "amount");
    const done = await attempt(async () => {
      const amount = typed === "" ? undefined : typedDollarsToCents(typed);
      if (amount === null || amount === 0) throw invalid("amount", "The amount is in dollars, such as 50.00");
      return payOutFromHome(db, merchant, amount);
    });
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath("/home/payouts");
    return { ok: true, amount: done.value.amount };
  });
}
