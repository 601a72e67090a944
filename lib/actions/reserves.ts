"use server";
import { revalidatePath } from "next/cache";

import { asIsvUser } from "@/lib/dashboard/session";
import { createReserve, releaseReserve } from "@/lib/domain/reserves/reserves";
import { invalid, invalidFields, issuesToFieldErrors } from "@/lib/errors";
import { typedDollarsToCents } from "@/lib/money";
import { createReserveSchema } from "@/lib/schemas/reserves";

import { attempt, problemsOf } from "./result";

// The dashboard's reserves on a merchant's payouts tab (docs/reference.md section 20): the same
// domain functions and rules as `POST /v1/merchants/{id}/reserves` and its release.

export type ReserveFormResult = { ok: true } | { ok: false; errors: { param: string; code: string }[] };

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The form's strings as the API's terms: a percent, days, dollars to cents, an optional date. */
function termsOf(input: unknown) {
  const form = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
  const number = (value: unknown) => (text(value) === "" ? Number.NaN : Number(text(value).replace(",", ".")));
  if (text(form.type) === "fixed") {
    const cents = typedDollarsToCents(text(form.amount));
    if (cents === null) throw invalid("amount", "amount must be an amount in dollars");
    return {
      type: "fixed",
      amount: cents,
      ...(text(form.release_on) ? { release_on: text(form.release_on) } : {}),
      reason: text(form.reason),
    };
  }
  return {
    type: "rolling",
    percent: number(form.percent),
    hold_days: number(form.hold_days),
    reason: text(form.reason),
  };
}

export async function createReserveAction(merchantId: string, input: unknown): Promise<ReserveFormResult> {
  return asIsvUser("payouts:write", async ({ db, account }) => {
    const done = await attempt(async () => {
      const parsed = createReserveSchema.safeParse(termsOf(input));
      if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues));
      return createReserve(db, { isvAccountId: account.id }, String(merchantId).slice(0, 64), parsed.data, "isv");
    });
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath(`/dashboard/merchants/${merchantId}`);
    return { ok: true };
  });
}

export async function releaseReserveAction(merchantId: string, reserveId: string): Promise<ReserveFormResult> {
  return asIsvUser("payouts:write", async ({ db, account }) => {
    const done = await attempt(() =>
      releaseReserve(db, { isvAccountId: account.id }, String(merchantId).slice(0, 64), String(reserveId).slice(0, 64)),
    );
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath(`/dashboard/merchants/${merchantId}`);
    return { ok: true };
  });
}
