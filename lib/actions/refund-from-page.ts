import "server-only";

import { revalidatePath } from "next/cache";

import type { Db } from "@/lib/db/types";
import { createRefund } from "@/lib/domain/refunds/create-refund";
import type { Scope } from "@/lib/domain/scope";
import { issuesToFieldErrors } from "@/lib/errors";
import { createRefundSchema } from "@/lib/schemas/refunds";

import { attempt } from "./result";

/**
 * A refund asked from a page (the ISV's dashboard, the merchant's home): the API's schema and
 * domain function within the caller's scope, the pages that show the charge refreshed, and the
 * first problem in words rather than an exception.
 */
export async function refundFromPage(db: Db, scope: Scope, input: unknown, pages: string[], maxAmount?: number) {
  const parsed = createRefundSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false as const, error: issuesToFieldErrors(parsed.error.issues)[0]?.message ?? "Invalid refund" };
  const done = await attempt(() => createRefund(db, scope, parsed.data, { maxAmount }));
  if (!done.ok) return { ok: false as const, error: done.message, code: done.code };
  for (const page of pages) revalidatePath(page, "page");
  return { ok: true as const, amount: done.value.amount };
}
