import { describe, expect, test } from "vitest";

import { emptyEvidence } from "../../schemas/disputes";
import {
  daysToRespond,
  disputedAmount,
  disputeMoves,
  EVIDENCE_WINDOW_MS,
  filledEvidence,
  lostUnanswered,
  mergeEvidence,
  sandboxDecision,
  whyNotAnswerable,
} from "./rules";

// A dispute's rules without a database: its moves, the evidence after a save, the deadline, what a
// dispute takes, and the sandbox bank's decision.

describe("dispute moves", () => {
  test("each move's states, exactly", () => {
    expect(disputeMoves).toEqual({
      submit: { from: ["needs_response"], to: "under_review" },
      accept: { from: ["needs_response"], to: "lost" },
      expire: { from: ["needs_response"], to: "lost" },
      win: { from: ["under_review"], to: "won" },
      lose: { from: ["under_review"], to: "lost" },
    });
  });
});

describe("evidence saved in parts", () => {
  test("the fields given replace what was saved; the others stay; '' and null clear", () => {
    const saved = { ...emptyEvidence(), customer_name: "Ana Ruiz", receipt: "file_1", uncategorized_text: "kept" };
    expect(mergeEvidence(saved, { product_description: "Two tickets", receipt: null, customer_name: "  " })).toEqual({
      ...emptyEvidence(),
      product_description: "Two tickets",
      uncategorized_text: "kept",
    });
  });
  test("a text is kept as typed (spaces inside and around a word are the merchant's)", () => {
    expect(mergeEvidence({}, { uncategorized_text: " The customer signed. " }).uncategorized_text).toBe(
      " The customer signed. ",
    );
  });
  test("an empty save changes nothing", () => {
    const saved = { ...emptyEvidence(), customer_name: "Ana" };
    expect(mergeEvidence(saved, {})).toEqual(saved);
  });
  test("filled fields: texts and files that hold something", () => {
    expect(filledEvidence(emptyEvidence())).toEqual([]);
    expect(filledEvidence({ ...emptyEvidence(), customer_name: "Ana", receipt: "file_1" })).toEqual([
      "customer_name",
      "receipt",
    ]);
    // An empty text (as stored before saves cleared it) holds nothing.
    expect(filledEvidence({ ...emptyEvidence(), customer_name: "", uncategorized_text: "x" })).toEqual([
      "uncategorized_text",
    ]);
  });
});

describe("the deadline", () => {
  const due = new Date("2026-12-01T12:00:00.000Z");
  const dispute = (status: "needs_response" | "under_review" | "won" | "lost") => ({
    id: "dp_1",
    status,
    evidenceDueBy: due,
  });
  test("answerable until the instant before its due time, not at it", () => {
    expect(whyNotAnswerable(dispute("needs_response"), new Date("2026-12-01T11:59:59.999Z"))).toBeNull();
    expect(whyNotAnswerable(dispute("needs_response"), due)).toBe(
      "The evidence of dispute dp_1 was due by 2026-12-01T12:00:00.000Z: it can no longer be answered",
    );
  });
  test.each(["under_review", "won", "lost"] as const)("%s: its evidence can no longer change", (status) => {
    expect(whyNotAnswerable(dispute(status), new Date("2026-11-25T00:00:00Z"))).toBe(
      `Dispute dp_1 is ${status}: its evidence can no longer change`,
    );
  });
  test("the window is seven days to the millisecond", () => expect(EVIDENCE_WINDOW_MS).toBe(604_800_000));
  test("days left, rounded up; 0 once due", () => {
    expect(daysToRespond(due, new Date("2026-11-24T12:00:00.000Z"))).toBe(7);
    expect(daysToRespond(due, new Date("2026-11-24T12:00:00.001Z"))).toBe(7);
    expect(daysToRespond(due, new Date("2026-11-30T12:00:00.001Z"))).toBe(1);
    expect(daysToRespond(due, new Date("2026-12-01T11:59:59.999Z"))).toBe(1);
    expect(daysToRespond(due, due)).toBe(0);
    expect(daysToRespond(due, new Date("2026-12-02T00:00:00Z"))).toBe(0);
  });
});

describe("what a dispute takes", () => {
  test("what the customer still paid: captured less refunded before", () => {
    expect(disputedAmount({ amountCaptured: 5_000, amountRefunded: 0 })).toBe(5_000);
    expect(disputedAmount({ amountCaptured: 5_000, amountRefunded: 1_250 })).toBe(3_750);
    expect(disputedAmount({ amountCaptured: 5_000, amountRefunded: 5_000 })).toBe(0);
  });
});

describe("the sandbox's card bank", () => {
  test("winning_evidence wins, losing_evidence loses, anything else stays under review", () => {
    expect(sandboxDecision({ uncategorized_text: "winning_evidence" })).toBe("win");
    expect(sandboxDecision({ uncategorized_text: " losing_evidence\n" })).toBe("lose");
    expect(sandboxDecision({ uncategorized_text: "The customer signed for it" })).toBeNull();
    expect(sandboxDecision({ uncategorized_text: null, customer_name: "winning_evidence" })).toBeNull();
  });
});

describe("lost without an answer", () => {
  const due = new Date("2026-12-01T12:00:00.000Z");
  const base = { status: "lost" as const, submittedAt: null, closedAt: due, evidenceDueBy: due };
  test("closed by the deadline with nothing submitted", () => expect(lostUnanswered(base)).toBe(true));
  test("accepted before the deadline, or submitted and decided, or not lost: not that", () => {
    expect(lostUnanswered({ ...base, closedAt: new Date("2026-11-30T00:00:00Z") })).toBe(false);
    expect(lostUnanswered({ ...base, submittedAt: new Date("2026-11-29T00:00:00Z") })).toBe(false);
    expect(lostUnanswered({ ...base, status: "won" })).toBe(false);
    // Lost, nothing submitted, but no closing time recorded: not said to be unanswered.
    expect(lostUnanswered({ ...base, closedAt: null })).toBe(false);
  });
});
