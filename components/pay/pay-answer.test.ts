import { describe, expect, test } from "vitest";

import en from "@/lib/i18n/messages/en.json";
import es from "@/lib/i18n/messages/es.json";
import { failureReasons } from "@/lib/schemas/payment-values";

import { payAnswer } from "./pay-answer";

const declined = (failure_reason: string) => ({ outcome: "declined", charge: { failure_reason } });

describe("what the pay answer means for the customer", () => {
  test("paid, or no longer payable (409 other than in progress): the page is shown again", () => {
    expect(payAnswer(200, { outcome: "paid" }, "card")).toEqual({ kind: "refresh" });
    expect(payAnswer(409, { error: { code: "invalid_state" } }, "card")).toEqual({ kind: "refresh" });
    expect(payAnswer(409, { error: { code: "payment_request_locked" } }, "card")).toEqual({ kind: "refresh" });
  });

  test("a card decline by its reason; an unknown reason and any bank decline in general words", () => {
    expect(payAnswer(200, declined("incorrect_cvc"), "card")).toEqual({
      kind: "problem",
      problem: { key: "decline_incorrect_cvc" },
    });
    expect(payAnswer(200, declined("made_up_reason"), "card")).toEqual({
      kind: "problem",
      problem: { key: "decline_unknown" },
    });
    expect(payAnswer(200, declined("insufficient_funds"), "bank_account")).toEqual({
      kind: "problem",
      problem: { key: "decline_bank_unknown" },
    });
  });

  test("too many declines, another attempt in progress, and anything else with the API's words", () => {
    expect(payAnswer(429, { error: { code: "too_many_declines" } }, "card")).toEqual({
      kind: "problem",
      problem: { key: "tooManyDeclines" },
    });
    expect(payAnswer(409, { error: { code: "payment_in_progress" } }, "card")).toEqual({
      kind: "problem",
      problem: { key: "busy" },
    });
    expect(payAnswer(400, { error: { message: "This token has expired" } }, "card")).toEqual({
      kind: "problem",
      problem: { key: "payError", message: "This token has expired" },
    });
    // Not JSON (a proxy's page): the status text.
    expect(payAnswer(502, null, "card", "Bad Gateway")).toEqual({
      kind: "problem",
      problem: { key: "payError", message: "Bad Gateway" },
    });
    // A 200 without an outcome is not "paid".
    expect(payAnswer(200, {}, "card")).toMatchObject({ kind: "problem" });
  });

  test("every key it can answer has its message in English and Spanish", () => {
    const keys = [
      ...failureReasons.map((r) => `decline_${r}`),
      "decline_unknown",
      "decline_bank_unknown",
      "tooManyDeclines",
      "busy",
      "payError",
    ];
    for (const messages of [en.pay, es.pay] as Record<string, unknown>[])
      expect(keys.filter((k) => typeof messages[k] !== "string")).toEqual([]);
  });
});
