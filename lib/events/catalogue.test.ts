import fs from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

import { eventCatalogue, eventTypes, scopeOf } from "./catalogue";

describe("the event catalogue", () => {
  test("payment, charge and refund events go to the charge scope; statements to merchant; reports to account (docs/reference.md sections 9, 10, 18)", () => {
    for (const t of eventTypes) {
      const expected =
        t.startsWith("merchant.") || t === "statement.created"
          ? "merchant"
          : t.startsWith("report.") || t.startsWith("residual.")
            ? "account"
            : "charge";
      expect(scopeOf(t), t).toBe(expected);
    }
    expect(scopeOf("payment_request.paid")).toBe("charge");
    expect(scopeOf("refund.created")).toBe("charge");
  });

  test("docs/webhooks.md lists exactly the catalogue, with each event's scope and resource", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "../../docs/webhooks.md"), "utf8");
    const rows = [...doc.matchAll(/^\|\s*`([a-z_]+\.[a-z_]+)`\s*\|\s*`(\w+)`\s*\|\s*(\w+)\s*\|/gm)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(rows).toEqual(eventTypes.map((t) => [t, eventCatalogue[t].scope, eventCatalogue[t].resource]));
  });
});
