import "server-only";

import { revalidatePath } from "next/cache";

import type { Db } from "@/lib/db/types";
import { createScopedPaymentRequest } from "@/lib/domain/payments/create-payment-request";
import type { Scope } from "@/lib/domain/scope";
import { issuesToFieldErrors } from "@/lib/errors";
import { invoiceRequestSchema, manualRequestSchema, scanToPayRequestSchema } from "@/lib/schemas/payment-requests";
import { payPageUrl } from "@/lib/serializers/payment-request";

import { attempt, firstProblem } from "./result";

export type RequestFromPageResult = { ok: true; id: string; payUrl: string } | { ok: false; error: string };

/** The request types a page may make, each checked with the API's own schema. */
const schemas = {
  INVOICE: invoiceRequestSchema,
  SCAN_TO_PAY: scanToPayRequestSchema,
  MANUAL: manualRequestSchema,
} as const;
export type PageRequestType = keyof typeof schemas;

/**
 * A payment request asked from a page (the ISV's dashboard, the merchant's home): an invoice
 * (e-mailed when an address is given, else a link to share), a scan-to-pay QR code, or a card typed
 * in place (MANUAL); the same schemas and domain function as POST /v1/invoice, /v1/scan_to_pay and
 * /v1/manual, within the caller's scope. Answers the request's pay page, or the first problem in words.
 */
export async function requestFromPage(
  db: Db,
  scope: Scope,
  input: unknown,
  allowed: PageRequestType[],
  pages: string[],
): Promise<RequestFromPageResult> {
  const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
  const { type, ...fields } = raw;
  if (typeof type !== "string" || !allowed.includes(type as PageRequestType))
    return { ok: false, error: `type must be one of ${allowed.join(", ")}` };
  const parsed =
    type === "INVOICE"
      ? schemas.INVOICE.safeParse({ ...fields, sendVia: fields.email_address ? "email" : "none" })
      : schemas[type as "SCAN_TO_PAY" | "MANUAL"].safeParse(fields);
  if (!parsed.success) {
    const first = issuesToFieldErrors(parsed.error.issues)[0];
    return { ok: false, error: first ? `${first.param}: ${first.message}` : "Invalid payment request" };
  }
  const done = await attempt(() =>
    createScopedPaymentRequest(db, scope, { type, ...parsed.data } as Parameters<typeof createScopedPaymentRequest>[2]),
  );
  if (!done.ok) return { ok: false, error: firstProblem(done) };
  const { row, base } = done.value;
  for (const page of pages) revalidatePath(page, "page");
  return { ok: true, id: row.id, payUrl: payPageUrl(base, row.id) };
}
