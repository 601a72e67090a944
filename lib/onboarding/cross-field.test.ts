import { describe, expect, test } from "vitest";

import {
  accountConfirmationProblem,
  ownershipProblem,
  ownershipTotal,
  routingNumberProblem,
  salesMixProblem,
  salesMixTotal,
  ticketProblem,
} from "./cross-field";

describe("cross-field rules (the wizard's and underwriting's)", () => {
  test("routing numbers by the ABA checksum", () => {
    expect(routingNumberProblem("021000021")).toBeNull();
    expect(routingNumberProblem("021000022")).toBe("routing_number_invalid");
    expect(routingNumberProblem(undefined)).toBe("routing_number_invalid");
    expect(routingNumberProblem("")).toBe("routing_number_invalid");
  });

  test("the account number typed twice", () => {
    expect(
      accountConfirmationProblem({ account_number: "000123456789", account_number_confirm: "000123456789" }),
    ).toBeNull();
    expect(accountConfirmationProblem({ account_number: "000123456789", account_number_confirm: "000123456788" })).toBe(
      "account_number_mismatch",
    );
    expect(accountConfirmationProblem({ account_number: "1234" })).toBe("account_number_mismatch");
  });

  test("ownership totals: listed owners only, blanks count as zero", () => {
    const app = {
      owner_one: { ownership_percentage: "60" },
      owner_two: { ownership_percentage: "40.5" },
      owner_three: { ownership_percentage: "" },
    };
    expect(ownershipTotal(app)).toBe(100.5);
    expect(ownershipTotal(app, ["owner_one"])).toBe(60);
    expect(ownershipTotal({ owner_one: { ownership_percentage: "abc" } })).toBe(0);
    expect(ownershipTotal(undefined)).toBe(0);
  });

  test.each([
    [100, "LLC", true, null],
    [100.01, "LLC", false, "ownership_over_100"],
    [101, "LLC", true, "ownership_over_100"],
    [25, "LLC", true, null],
    [24.99, "LLC", true, "ownership_under_25"],
    [24.99, "LLC", false, null],
    [0, "Tax Exempt Org", true, null],
    [0, "Association/State & Trust", true, null],
    [0, "Corporation", true, "ownership_under_25"],
  ])("ownershipProblem(%d, %s, requireQuarter %s) = %s", (total, type, requireQuarter, problem) => {
    expect(ownershipProblem(total, type, { requireQuarter })).toBe(problem);
  });

  test("the sales mix adds up to 100", () => {
    const mix = { card_swipe_percentage: "70", online_percentage: "20", keyed_percentage: "5", moto_percentage: "5" };
    expect(salesMixTotal(mix)).toBe(100);
    expect(salesMixProblem(mix)).toBeNull();
    expect(salesMixProblem({ ...mix, moto_percentage: "4" })).toBe("sales_mix_not_100");
    expect(salesMixProblem({ ...mix, moto_percentage: "6" })).toBe("sales_mix_not_100");
    expect(
      salesMixProblem({ card_swipe_percentage: "33.3", online_percentage: "33.3", keyed_percentage: "33.4" }),
    ).toBeNull();
    expect(salesMixTotal({ card_swipe_percentage: "x", online_percentage: "100" })).toBe(100);
    expect(salesMixProblem(undefined)).toBe("sales_mix_not_100");
  });

  test("the average sale cannot exceed the largest, compared in cents", () => {
    expect(ticketProblem({ average_ticket_value: "35.50", highest_amount_to_date: "35.50" })).toBeNull();
    expect(ticketProblem({ average_ticket_value: "35.51", highest_amount_to_date: "35.50" })).toBe(
      "average_above_highest",
    );
    expect(ticketProblem({ average_ticket_value: "9", highest_amount_to_date: "10" })).toBeNull();
    // Not amounts yet: the fields' own checks report them.
    expect(ticketProblem({ average_ticket_value: "", highest_amount_to_date: "10" })).toBeNull();
    expect(ticketProblem({ average_ticket_value: "12", highest_amount_to_date: "abc" })).toBeNull();
    expect(ticketProblem(undefined)).toBeNull();
  });
});
