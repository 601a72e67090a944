import { describe, expect, test } from "vitest";

import { defaultCostProfile } from "../../schemas/cost-profile";
import { disputePrice } from "./dispute-price";

describe("disputePrice", () => {
  const isv = (disputeFee: number, disputeCost?: number) =>
    ({
      id: "acct_1",
      settings: { dispute_fee: disputeFee },
      costProfile: disputeCost === undefined ? null : { ...defaultCostProfile, dispute_cost: disputeCost },
    }) as never;

  test("the ISV's fee, the platform's cost and the margin between them", () => {
    expect(disputePrice(isv(2_500, 1_500))).toEqual({ fee: 2_500, costs: 1_500, margin: 1_000 });
  });
  test("a fee below the cost is a negative margin; no cost profile is the contract's default", () => {
    expect(disputePrice(isv(500, 1_500))).toEqual({ fee: 500, costs: 1_500, margin: -1_000 });
    expect(disputePrice(isv(2_000)).costs).toBe(defaultCostProfile.dispute_cost);
  });
});
