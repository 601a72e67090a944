"use server";

import { revalidatePath } from "next/cache";

import { createPaymentLink, findPaymentLink, updatePaymentLink } from "@/lib/domain/payment-links/payment-links";
import { issuesToFieldErrors } from "@/lib/errors";
import { asMerchant } from "@/lib/home/session";
import { createPaymentLinkSchema } from "@/lib/schemas/payment-links";

import { attempt, firstProblem } from "./result";

// The merchant's payment links in its home (docs/reference.md section 21): the API's schema and
// domain functions, for the home's own merchant only.

export type LinkActionResult = { ok: true; id: string } | { ok: false; code: string; message: string };

const refresh = () => revalidatePath("/home/take-payment", "page");

/** A new link of the home's merchant: a fixed amount, or the customer's own within a range. */
export async function homeCreateLinkAction(input: unknown): Promise<LinkActionResult> {
  return asMerchant(async ({ db, scope, merchant }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const parsed = createPaymentLinkSchema.safeParse({ ...raw, merchant_id: merchant.id });
    if (!parsed.success) {
      const [first] = issuesToFieldErrors(parsed.error.issues, [], raw);
      return { ok: false, code: first?.code ?? "parameter_invalid", message: first?.message ?? "" };
    }
    const done = await attempt(() => createPaymentLink(db, scope, parsed.data));
    if (!done.ok) return { ok: false, code: done.code, message: firstProblem(done) };
    refresh();
    return { ok: true, id: done.value.id };
  });
}

/** A link turned off (a visit then says it takes no payments), or on again. */
async function setActive(id: string, active: boolean): Promise<LinkActionResult> {
  return asMerchant(async ({ db, scope }) => {
    const done = await attempt(async () => {
      await findPaymentLink(db, scope, id);
      return updatePaymentLink(db, scope, id, { active });
    });
    if (!done.ok) return { ok: false, code: done.code, message: firstProblem(done) };
    refresh();
    return { ok: true, id };
  });
}

export async function homeLinkOffAction(id: string) {
  return setActive(id, false);
}

export async function homeLinkOnAction(id: string) {
  return setActive(id, true);
}
