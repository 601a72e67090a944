"use server";

import { revalidatePath } from "next/cache";

import { chargeSavedMethod } from "@/lib/domain/charges/charge-saved-method";
import { createCustomer } from "@/lib/domain/customers/customers";
import { detachPaymentMethod, findPaymentMethod } from "@/lib/domain/customers/payment-methods";
import { cancelSubscription } from "@/lib/domain/subscriptions/subscriptions";
import { AppError, issuesToFieldErrors } from "@/lib/errors";
import { asMerchant } from "@/lib/home/session";
import { createCustomerSchema, savedChargeSchema } from "@/lib/schemas/customers";

import { requestFromPage, type RequestFromPageResult } from "./request-from-page";
import { attempt, firstProblem, refusalOf } from "./result";

// The merchant's customers in its home (docs/reference.md section 21): the API's schemas and domain
// functions, for the home's own merchant only.

export type CustomerActionResult =
  { ok: true; id: string } | { ok: false; param?: string; code: string; message: string };
export type SavedChargeResult =
  | { ok: true; amount: number; last4: string | null }
  | { ok: false; code: string; message: string; declineCode?: string };

const paths = ["/home/customers", "/home/customers/[customerId]"];
const refresh = () => paths.forEach((p) => revalidatePath(p, "page"));

/** A new customer of the home's merchant: its name and e-mail as typed. */
export async function homeCreateCustomerAction(input: unknown): Promise<CustomerActionResult> {
  return asMerchant(async ({ db, scope, merchant }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const parsed = createCustomerSchema.safeParse({ ...raw, merchant_id: merchant.id });
    if (!parsed.success) {
      const [first] = issuesToFieldErrors(parsed.error.issues, [], raw);
      return {
        ok: false,
        param: first?.param,
        code: first?.code ?? "parameter_invalid",
        message: first?.message ?? "",
      };
    }
    const done = await attempt(() => createCustomer(db, scope, parsed.data));
    if (!done.ok) return { ok: false, param: done.param, code: done.code, message: firstProblem(done) };
    refresh();
    return { ok: true, id: done.value.id };
  });
}

/** An invoice for the customer (e-mailed when an address is given): its pay page offers to save the card. */
export async function homeCustomerRequestAction(input: unknown): Promise<RequestFromPageResult> {
  return asMerchant(async ({ db, merchant, scope }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    return requestFromPage(db, scope, { ...raw, merchant_id: merchant.id }, ["INVOICE"], paths);
  });
}

/** The customer's saved card charged again (the customer not present); a decline in words. */
export async function homeChargeSavedAction(input: unknown): Promise<SavedChargeResult> {
  return asMerchant(async ({ db, merchant, scope }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    const parsed = savedChargeSchema.safeParse({ ...raw, merchant_id: merchant.id });
    if (!parsed.success) {
      const [first] = issuesToFieldErrors(parsed.error.issues, [], raw);
      return { ok: false, code: first?.code ?? "parameter_invalid", message: first?.message ?? "" };
    }
    try {
      const charge = await chargeSavedMethod(db, scope, parsed.data);
      refresh();
      revalidatePath("/home/payments", "page");
      return { ok: true, amount: charge.amount_captured, last4: charge.card_last_4 ?? null };
    } catch (error) {
      if (error instanceof AppError && error.code === "card_declined")
        return {
          ok: false,
          code: error.code,
          message: error.message,
          declineCode: String(error.details?.decline_code ?? "card_declined"),
        };
      const refusal = refusalOf(error);
      return { ok: false, code: refusal.code, message: firstProblem(refusal) };
    }
  });
}

/** A saved method removed from the customer (charging it is refused from then on). */
export async function homeDetachMethodAction(id: string): Promise<CustomerActionResult> {
  return asMerchant(async ({ db, scope }) => {
    const done = await attempt(async () => {
      await findPaymentMethod(db, scope, id);
      return detachPaymentMethod(db, scope, id);
    });
    if (!done.ok) return { ok: false, code: done.code, message: firstProblem(done) };
    refresh();
    return { ok: true, id };
  });
}

/** A subscription of one of the merchant's customers canceled now (its open invoice too). */
export async function homeCancelSubscriptionAction(id: string): Promise<CustomerActionResult> {
  return asMerchant(async ({ db, scope }) => {
    const done = await attempt(() => cancelSubscription(db, scope, id));
    if (!done.ok) return { ok: false, code: done.code, message: firstProblem(done) };
    refresh();
    return { ok: true, id };
  });
}
