import { invalid } from "@/lib/errors";
import { typedDollarsToCents } from "@/lib/money";
import { type PayoutScheduleChange, payoutScheduleChangeSchema } from "@/lib/schemas/payout-schedule";

// The payout schedule form's values (the home's and the dashboard's: components/home/payout-schedule-form.tsx)
// as a schedule change: the interval, its anchor, the delay and the minimum in dollars as typed.

/** Whole numbers as typed ("3"), else NaN (refused by the schema with the field's name). */
const whole = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN);

/** The change the form says, or a 400 naming the field (`payout_schedule.<field>`). */
export function scheduleFromForm(input: unknown): PayoutScheduleChange {
  const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof raw[key] === "string" ? raw[key].trim() : "");
  const interval = text("interval");
  const minimum = text("minimum_amount");
  const minimumCents = minimum === "" ? 0 : typedDollarsToCents(minimum);
  if (minimumCents === null)
    throw invalid("payout_schedule.minimum_amount", "The minimum is an amount in dollars, such as 50.00");
  const parsed = payoutScheduleChangeSchema.safeParse({
    interval,
    ...(interval === "weekly" ? { weekly_anchor: text("weekly_anchor") } : {}),
    ...(interval === "monthly" ? { monthly_anchor: whole(text("monthly_anchor")) } : {}),
    delay_days: whole(text("delay_days")),
    minimum_amount: minimumCents,
  });
  if (!parsed.success)
    throw invalid(`payout_schedule.${String(parsed.error.issues[0]?.path[0] ?? "interval")}`, "Not a valid value");
  return parsed.data;
}
