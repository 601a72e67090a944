import { expect, test } from "vitest";

import { timelineOf } from "./timeline";

const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 8, minute));

test("moments and refunds in the order they happened, what did not happen left out", () => {
  const lines = timelineOf(
    [
      ["Paid", at(14)],
      ["Settled", at(16)],
      ["Returned", null],
    ],
    [
      { amount: 500, createdAt: at(15) },
      { amount: 300, createdAt: at(17), status: "failed" },
      { amount: 200, createdAt: at(18), status: "pending" },
    ],
    (amount) => `Refunded ${amount}`,
  );
  expect(lines.map((l) => l.label)).toEqual(["Paid", "Refunded 500", "Settled", "Refunded 200"]);
});

test("a tie keeps the given order", () => {
  const lines = timelineOf(
    [
      ["Paid", at(14)],
      ["Settled", at(14)],
    ],
    [],
    String,
  );
  expect(lines.map((l) => l.label)).toEqual(["Paid", "Settled"]);
});
