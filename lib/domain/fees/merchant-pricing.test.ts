import { describe, expect, test } from "vitest";

import { feeForAchCharge, feeForCardCharge, merchantPricing, takesAch } from "./merchant-pricing";

// The merchant's pricing: its own types, else its ISV's; the ISV's options with the merchant's on top.

const isv = {
  types: ["flat_rate", "ach"],
  options: {
    flat_rate: { rate_percent: "2.90", fee_fixed: "0.30", amex_rate_percent: "3.50", amex_fee_fixed: "0.30" },
    tiered: { vmd_qual_credit_rate_percent: "1.69" },
    ach: { txn_fee_percent: "0.50", txn_fee_fixed: "0.25" },
  },
};
const merchant = (capabilities?: Record<string, unknown>) =>
  ({ application: capabilities ? { capabilities } : {}, defaultCapabilities: isv }) as never;
const keyed = {
  amount: 10_000,
  brand: "visa",
  funding: "credit",
  entryMethod: "MANUAL" as const,
  keyedWithPostalCode: false,
};

describe("merchant pricing", () => {
  test("no types of its own: the ISV's; the first card model prices cards", () => {
    const p = merchantPricing(merchant());
    expect(p.types).toEqual(["flat_rate", "ach"]);
    expect(p.cardModel).toBe("flat_rate");
    expect(p.options("flat_rate")).toEqual(isv.options.flat_rate);
    expect(p.options("two_tiered")).toEqual({});
    expect(takesAch(merchant())).toBe(true);
  });

  test("its own types replace the ISV's; its own options override one by one", () => {
    const own = merchant({ types: ["ach", "tiered"], options: { flat_rate: { fee_fixed: "0.20" } } });
    const p = merchantPricing(own);
    expect(p.types).toEqual(["ach", "tiered"]);
    expect(p.cardModel).toBe("tiered");
    expect(p.options("flat_rate")).toEqual({ ...isv.options.flat_rate, fee_fixed: "0.20" });
    expect(takesAch(merchant({ types: ["flat_rate"] }))).toBe(false);
    expect(merchantPricing({ application: {}, defaultCapabilities: {} } as never)).toMatchObject({
      types: [],
      cardModel: null,
    });
  });

  test("a card charge: priced by the card model with the class and whether the card was present", () => {
    expect(feeForCardCharge(merchant(), keyed)?.fee).toBe(320);
    expect(feeForCardCharge(merchant(), { ...keyed, brand: "amex" })?.fee).toBe(380);
    // Present (chip) under tiered: qualified 1.69 %.
    expect(
      feeForCardCharge(merchant({ types: ["tiered"] }), { ...keyed, entryMethod: "CHIP" })?.lines[0]?.description,
    ).toBe("Tiered, qualified, Visa, Mastercard, Discover credit");
    expect(feeForCardCharge(merchant({ types: ["tiered"] }), { ...keyed, entryMethod: "CHIP" })?.fee).toBe(169);
    // Keyed (MANUAL) under tiered: not present, so not qualified.
    expect(feeForCardCharge(merchant({ types: ["tiered"] }), keyed)?.lines[0]?.description).toBe(
      "Tiered, non-qualified, Visa, Mastercard, Discover credit",
    );
    expect(feeForCardCharge(merchant({ types: ["ach"] }), keyed)).toBeNull();
  });

  test("an ACH charge: priced only when ACH is among the types", () => {
    expect(feeForAchCharge(merchant(), 10_000)?.fee).toBe(75);
    expect(feeForAchCharge(merchant({ types: ["flat_rate"] }), 10_000)).toBeNull();
  });
});
