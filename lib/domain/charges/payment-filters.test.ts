import { describe, expect, test } from "vitest";

import { readPaymentFilters } from "./payment-filters";

describe("the home's payment filters", () => {
  test("every filter read into the list's query", () => {
    const { query, problems, filtered } = readPaymentFilters({
      status: "AUTHORIZED",
      type: "SCAN_TO_PAY",
      from: "2026-11-01",
      to: "2026-11-24",
      amount: "25.99",
      last4: "4242",
    });
    expect(problems).toEqual({});
    expect(filtered).toBe(true);
    expect(query).toEqual({
      limit: 25,
      starting_after: undefined,
      ending_before: undefined,
      status: "AUTHORIZED",
      payment_type: "SCAN_TO_PAY",
      "created[gte]": Date.UTC(2026, 10, 1),
      "created[lte]": Date.UTC(2026, 10, 25) - 1,
      amount: 2599,
      last4: "4242",
    });
  });
  test("unusable values are reported by field and filter nothing", () => {
    const { query, problems, filtered } = readPaymentFilters({
      status: "PAID",
      type: "CASH",
      from: "2026-02-30",
      amount: "12,5x",
      last4: "42a2",
    });
    expect(problems).toEqual({ from: "date", amount: "amount", last4: "last4" });
    expect(filtered).toBe(false);
    expect(query).toMatchObject({ status: undefined, payment_type: undefined, amount: undefined, last4: undefined });
    expect(query["created[gte]"]).toBeUndefined();
  });
  test("an end before the start is a problem, and neither date filters", () => {
    const { query, problems } = readPaymentFilters({ from: "2026-11-10", to: "2026-11-01" });
    expect(problems).toEqual({ to: "range" });
    expect(query["created[gte]"]).toBeUndefined();
    expect(query["created[lte]"]).toBeUndefined();
  });
  test("pages by charge ids only; a comma for cents is understood; zero is no amount", () => {
    expect(readPaymentFilters({ after: "ch_abc" }).query.starting_after).toBe("ch_abc");
    expect(readPaymentFilters({ after: "'; drop" }).query.starting_after).toBeUndefined();
    expect(readPaymentFilters({ before: "ch_x", after: "ch_y" }).query).toMatchObject({
      starting_after: undefined,
      ending_before: "ch_x",
    });
    expect(readPaymentFilters({ amount: "12,50" }).query.amount).toBe(1250);
    expect(readPaymentFilters({ amount: "0" }).problems).toEqual({ amount: "amount" });
  });
});
