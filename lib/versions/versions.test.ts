import { describe, expect, test } from "vitest";

import { changesAfter, requestToLatest, toVersion, type VersionSet } from "./versions";

// The mechanism that keeps an old version's shapes (docs/reference.md section 22), on made-up
// versions: 2026-01-01 had `amount_cents` on a charge and `name` on a merchant; 2026-06-01 renamed the
// charge's field to `amount`; 2026-09-01 split the merchant's `name` into `legal_name`.
const set: VersionSet = {
  versions: ["2026-01-01", "2026-06-01", "2026-09-01"],
  changes: [
    {
      version: "2026-06-01",
      object: "charge",
      description: "amount_cents is now amount",
      toOlder: ({ amount, ...rest }) => ({ ...rest, amount_cents: amount }),
      requestToLatest: ({ amount_cents, ...rest }) =>
        amount_cents === undefined ? rest : { ...rest, amount: amount_cents },
    },
    {
      version: "2026-09-01",
      object: "merchant",
      description: "name is now legal_name",
      toOlder: ({ legal_name, ...rest }) => ({ ...rest, name: legal_name }),
    },
  ],
};

const latest = {
  object: "list",
  data: [
    { object: "charge", id: "ch_1", amount: 500, merchant: { object: "merchant", id: "mer_1", legal_name: "Café" } },
    { object: "event", data: { object: { object: "merchant", id: "mer_2", legal_name: "Bar" } } },
  ],
};

describe("answers in an older version's shapes", () => {
  test("the latest version sees the latest shapes, untouched", () => {
    expect(toVersion(latest, "2026-09-01", set)).toBe(latest);
  });
  test("each change after the caller's version is undone, at any depth (a list's items, an event's object)", () => {
    expect(toVersion(latest, "2026-06-01", set)).toEqual({
      object: "list",
      data: [
        { object: "charge", id: "ch_1", amount: 500, merchant: { object: "merchant", id: "mer_1", name: "Café" } },
        { object: "event", data: { object: { object: "merchant", id: "mer_2", name: "Bar" } } },
      ],
    });
    expect(toVersion(latest, "2026-01-01", set)).toEqual({
      object: "list",
      data: [
        {
          object: "charge",
          id: "ch_1",
          amount_cents: 500,
          merchant: { object: "merchant", id: "mer_1", name: "Café" },
        },
        { object: "event", data: { object: { object: "merchant", id: "mer_2", name: "Bar" } } },
      ],
    });
    // The latest answer itself is not changed.
    expect(latest.data[0]).toMatchObject({ amount: 500 });
  });
  test("changes are undone newest first; requests are brought up oldest first", () => {
    expect(changesAfter("2026-01-01", set).map((c) => c.version)).toEqual(["2026-09-01", "2026-06-01"]);
    expect(requestToLatest({ amount_cents: 700, currency: "usd" }, "2026-01-01", set)).toEqual({
      amount: 700,
      currency: "usd",
    });
    expect(requestToLatest({ amount: 700 }, "2026-06-01", set)).toEqual({ amount: 700 });
  });
});
