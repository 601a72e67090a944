import { failureReasons } from "@/lib/schemas/payment-values";

// What the pay operation's answer means for the customer in front of the pay page
// (POST /v1/payment_requests/{id}/pay, docs/reference.md section 10): paid, or no longer payable,
// shows the page again (it says what happened); anything else is a problem in plain words, named by
// its message key in the `pay` messages.

/** A problem's message: its key in the `pay` messages (and the API's own words for an unexpected error). */
export type PayProblem =
  { key: `decline_${string}` | "tooManyDeclines" | "busy" } | { key: "payError"; message: string };

export type PayAnswer = { kind: "refresh" } | { kind: "problem"; problem: PayProblem };

type Body = { outcome?: unknown; charge?: { failure_reason?: unknown }; error?: { code?: unknown; message?: unknown } };

export function payAnswer(
  status: number,
  answer: unknown,
  method: "card" | "bank_account",
  statusText = "",
): PayAnswer {
  const body = (answer && typeof answer === "object" ? answer : {}) as Body;
  const ok = status >= 200 && status < 300;
  const problem = (p: PayProblem): PayAnswer => ({ kind: "problem", problem: p });
  if (ok && body.outcome === "paid") return { kind: "refresh" };
  if (ok && body.outcome === "declined") {
    // The answer names no bank decline's reason (card testing: docs/reference.md section 10).
    if (method === "bank_account") return problem({ key: "decline_bank_unknown" });
    const reason = String(body.charge?.failure_reason ?? "unknown");
    const known: readonly string[] = failureReasons;
    return problem({ key: `decline_${known.includes(reason) ? reason : "unknown"}` });
  }
  if (status === 429 && body.error?.code === "too_many_declines") return problem({ key: "tooManyDeclines" });
  if (status === 409 && body.error?.code === "payment_in_progress") return problem({ key: "busy" });
  // Paid by another attempt, cancelled, expired or locked: the page says which.
  if (status === 409) return { kind: "refresh" };
  return problem({
    key: "payError",
    message: typeof body.error?.message === "string" ? body.error.message : statusText,
  });
}
