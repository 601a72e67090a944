"use server";
import { revalidatePath } from "next/cache";

import { addPayoutCard, payoutCardRefusals, removePayoutCard } from "@/lib/domain/payouts/payout-card";
import { asMerchant } from "@/lib/home/session";

import { attempt } from "./result";

// The home's debit card for instant payouts (docs/reference.md section 20): a token of the card
// frame becomes the card, after a fresh sign-in; each refusal a reason the page says in words.

export type PayoutCardProblem =
  "credit" | "prepaid" | "unknown" | "token" | "reauth" | "frozen" | "unavailable" | "failed";
export type PayoutCardResult = { ok: true } | { ok: false; problem: PayoutCardProblem };

/** The refusal's reason, from its code (and, for a card that is not debit, its words). */
function problemOf(code: string, message: string): PayoutCardProblem {
  if (code === "payout_card_refused") {
    const funding = (Object.keys(payoutCardRefusals) as (keyof typeof payoutCardRefusals)[]).find(
      (f) => payoutCardRefusals[f] === message,
    );
    return funding ?? (message.includes("not available") ? "unavailable" : "unknown");
  }
  if (code === "token_invalid") return "token";
  if (code === "reauthentication_required") return "reauth";
  if (code === "payouts_frozen") return "frozen";
  return "failed";
}

/** "Add debit card": the frame's token (`tok_...`) becomes the merchant's card for instant payouts. */
export async function homePayoutCardAction(token: unknown): Promise<PayoutCardResult> {
  return asMerchant(async ({ db, merchant, session }) => {
    if (typeof token !== "string" || !token.startsWith("tok_")) return { ok: false, problem: "token" };
    const done = await attempt(() => addPayoutCard(db, merchant.id, token, { by: "home", session }));
    if (!done.ok) return { ok: false, problem: problemOf(done.code, done.message) };
    revalidatePath("/home/settings");
    revalidatePath("/home/payouts");
    return { ok: true };
  });
}

/** "Remove card": instant payouts no longer go to it (no fresh sign-in needed: nothing can go anywhere new). */
export async function homeRemovePayoutCardAction(): Promise<PayoutCardResult> {
  return asMerchant(async ({ db, merchant }) => {
    await removePayoutCard(db, merchant);
    revalidatePath("/home/settings");
    revalidatePath("/home/payouts");
    return { ok: true };
  });
}
