import { describe, expect, test } from "vitest";

import { checkCard, typedCardNetwork } from "./card-check";

const now = new Date("2026-11-22T12:00:00Z");
const card = (over: Partial<Parameters<typeof checkCard>[0]>) =>
  checkCard({ number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123", ...over }, now);

describe("checkCard", () => {
  test.each([
    ["4242 4242 4242 4242", "visa"],
    ["5555555555554444", "mastercard"],
    ["6011111111111117", "discover"],
    ["4000056655665556", "visa"],
  ])("%s is a valid %s", (number, brand) => {
    const result = card({ number });
    expect(result).toMatchObject({
      ok: true,
      card: { brand, last4: number.replace(/ /g, "").slice(-4), expMonth: 12, expYear: 2030 },
    });
  });

  test("Amex needs a 4-digit CVC", () => {
    expect(card({ number: "378282246310005", cvc: "1234" })).toMatchObject({ ok: true, card: { brand: "amex" } });
    expect(card({ number: "378282246310005", cvc: "123" })).toEqual({
      ok: false,
      problems: [{ field: "cvc", code: "invalid_cvc" }],
    });
  });

  test.each([
    [{ number: "4242424242424241" }, [{ field: "number", code: "invalid_number" }]],
    [{ number: "4242" }, [{ field: "number", code: "invalid_number" }]],
    [{ number: "42424242424242a2" }, [{ field: "number", code: "invalid_number" }]],
    [{ exp_month: 13 }, [{ field: "exp_month", code: "invalid_expiry" }]],
    [{ exp_month: 10, exp_year: 2026 }, [{ field: "exp_month", code: "expired" }]],
    [{ exp_year: 2060 }, [{ field: "exp_year", code: "invalid_expiry" }]],
    [{ cvc: "12" }, [{ field: "cvc", code: "invalid_cvc" }]],
  ])("%j is refused", (over, problems) => {
    expect(card(over)).toEqual({ ok: false, problems });
  });

  test("the expiry month itself is still good; two-digit years are 20xx", () => {
    expect(card({ exp_month: 11, exp_year: "26" })).toMatchObject({ ok: true, card: { expYear: 2026 } });
  });
});

describe("the network of a card as it is typed", () => {
  test.each([
    ["42", "Visa"],
    ["4242 4242", "Visa"],
    ["34", "American Express"],
    ["3782 822463 10005", "American Express"],
    ["5555", "Mastercard"],
    ["2221", "Mastercard"],
    ["6011", "Discover"],
  ])("%s → %s", (typed, network) => expect(typedCardNetwork(typed)).toBe(network));

  test("not yet said, or not a card: nothing", () => {
    expect(typedCardNetwork("")).toBeNull();
    expect(typedCardNetwork("0")).toBeNull();
    expect(typedCardNetwork("5")).toBeNull();
    expect(typedCardNetwork("abc")).toBeNull();
  });
});
