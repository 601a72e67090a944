import { describe, expect, test } from "vitest";

import { atTime } from "../../clock-scope";
import { heldReasonOf as heldReasonOfSplit, nextMove, payoutMoves } from "./rules";

type Facts = {
  automaticPayouts: boolean;
  requirements: Parameters<typeof heldReasonOfSplit>[0]["requirements"];
  verification: { type: string; status: string }[];
  bankAccountHoldUntil?: Date | null;
  payoutsFrozenAt?: Date | null;
  riskPausedAt?: Date | null;
};
/** The merchant's facts and its payout settings (./settings.ts) in one object, as the cases read best. */
const heldReasonOf = (m: Facts, now?: Date) =>
  heldReasonOfSplit(
    m,
    {
      automatic: m.automaticPayouts,
      frozenAt: m.payoutsFrozenAt ?? null,
      bankAccountHoldUntil: m.bankAccountHoldUntil ?? null,
      riskPausedAt: m.riskPausedAt ?? null,
    },
    now,
  );

// The payout's rules (docs/reference.md section 16): which moves exist, and what holds a payout.

const verified = [{ type: "bank_account", status: "verified" }];
const base = { automaticPayouts: true, requirements: null, verification: verified };
const failedPayout = {
  currently_due: ["merchant.bank_account"],
  errors: [{ field: "merchant.bank_account", code: "payout_failed", message: "closed" }],
};
const now = new Date("2026-11-27T12:00:00Z");
const later = new Date("2026-12-02T00:00:00Z");
const earlier = new Date("2026-11-20T00:00:00Z");

describe("heldReasonOf", () => {
  test.each([
    ["nothing holds a verified, approved account", base, null],
    ["payouts turned off", { ...base, automaticPayouts: false }, "automatic_payouts_off"],
    ["a risk alert paused them", { ...base, riskPausedAt: now }, "risk_review"],
    ["a change reported as not the merchant's", { ...base, payoutsFrozenAt: earlier }, "payouts_frozen"],
    ["a refused payout asks for a new account", { ...base, requirements: failedPayout }, "payout_failed"],
    // The account underwriting approved: only a check still running or asking holds.
    [
      "approved account, check pending",
      { ...base, verification: [{ type: "bank_account", status: "pending" }] },
      "bank_account_unverified",
    ],
    [
      "approved account, check wants a document",
      { ...base, verification: [{ type: "bank_account", status: "requires_document" }] },
      "bank_account_unverified",
    ],
    [
      "approved account whose check failed (approved anyway)",
      { ...base, verification: [{ type: "bank_account", status: "failed" }] },
      null,
    ],
    // A bank account entered after approval: verified, and its cooling-off over, or nothing goes.
    [
      "changed account, check failed",
      { ...base, bankAccountHoldUntil: earlier, verification: [{ type: "bank_account", status: "failed" }] },
      "bank_account_unverified",
    ],
    [
      "changed account, check pending",
      { ...base, bankAccountHoldUntil: earlier, verification: [{ type: "bank_account", status: "pending" }] },
      "bank_account_unverified",
    ],
    [
      "changed account, no check at all",
      { ...base, bankAccountHoldUntil: earlier, verification: [] },
      "bank_account_unverified",
    ],
    ["changed account verified, cooling off", { ...base, bankAccountHoldUntil: later }, "bank_account_cooling_off"],
    ["changed account verified, cooling-off over", { ...base, bankAccountHoldUntil: earlier }, null],
  ] as const)("%s: %s", (_, merchant, expected) => {
    expect(heldReasonOf(merchant as Facts, now)).toBe(expected);
  });

  test("the cooling-off ends at its instant, not a moment before", () => {
    const merchant = { ...base, bankAccountHoldUntil: later };
    expect(heldReasonOf(merchant, new Date(later.getTime() - 1))).toBe("bank_account_cooling_off");
    expect(heldReasonOf(merchant, later)).toBeNull();
  });

  test("what an operator must clear comes first: frozen over a refused payout over an unverified account", () => {
    const all = {
      ...base,
      payoutsFrozenAt: earlier,
      requirements: failedPayout,
      bankAccountHoldUntil: later,
      verification: [{ type: "bank_account", status: "failed" }],
    };
    expect(heldReasonOf(all, now)).toBe("payouts_frozen");
    expect(heldReasonOf({ ...all, payoutsFrozenAt: null }, now)).toBe("payout_failed");
    expect(heldReasonOf({ ...all, payoutsFrozenAt: null, requirements: null }, now)).toBe("bank_account_unverified");
  });
  test("only a refused payout's request holds payouts, and only the bank account's check counts", () => {
    // Another open request (a document underwriting asks for) does not hold payouts.
    const asked = {
      currently_due: ["owner_one.verification.document"],
      errors: [{ field: "owner_one.verification.document", code: "document_required", message: "An ID." }],
    } as never;
    expect(heldReasonOf({ ...base, requirements: asked }, now)).toBeNull();
    // The identity check waiting for a document is not the bank account's.
    expect(
      heldReasonOf(
        {
          ...base,
          verification: [
            { type: "identity", status: "requires_document" },
            { type: "bank_account", status: "verified" },
          ],
        },
        now,
      ),
    ).toBeNull();
  });
});

describe("the payout's moves", () => {
  test("a payout once sent never goes back to held or pending, and paid or failed are final", () => {
    const into = (status: string) =>
      Object.entries(payoutMoves)
        .filter(([, m]) => (m.from as readonly string[]).includes(status))
        .map(([name]) => name)
        .sort();
    // `refuse`: an instant payout the rail refused at sending (it never left).
    expect(into("pending")).toEqual(["hold", "refuse", "send"]);
    expect(into("held")).toEqual(["release"]);
    expect(into("in_transit")).toEqual(["fail", "pay"]);
    expect(into("paid")).toEqual([]);
    expect(into("failed")).toEqual([]);
  });

  test("the next step: pending is sent, in_transit is settled, nothing else moves by itself", () => {
    expect(nextMove("pending")).toBe("send");
    expect(nextMove("in_transit")).toBe("settle");
    for (const s of ["held", "paid", "failed"] as const) expect(nextMove(s)).toBeNull();
  });
});

describe("the one clock (lib/clock.ts)", () => {
  test("a rule of the domain that reads now follows it: a new bank account's cooling-off ends at the frozen time", () => {
    const merchant = {
      automaticPayouts: true,
      requirements: null,
      verification: [{ type: "bank_account", status: "verified" }],
      bankAccountHoldUntil: new Date("2030-01-10T00:00:00Z"),
      payoutsFrozenAt: null,
    };
    expect(atTime(new Date("2030-01-09T23:59:59Z"), () => heldReasonOf(merchant))).toBe("bank_account_cooling_off");
    expect(atTime(new Date("2030-01-10T00:00:00Z"), () => heldReasonOf(merchant))).toBeNull();
  });
});
