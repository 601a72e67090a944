import { describe, expect, test } from "vitest";

import en from "../../i18n/messages/en.json" with { type: "json" };
import es from "../../i18n/messages/es.json" with { type: "json" };
import { auditActions, isAuditAction } from "./actions";

// The dashboard's audit page shows each action in the reader's words: every action the code may
// write has a label in each language, and no label is left for an action that no longer exists.
const labelsOf = (messages: typeof en) =>
  Object.entries(messages.dashboard.auditActions).flatMap(([resource, verbs]) =>
    Object.entries(verbs as Record<string, string>).map(([verb, label]) => [`${resource}.${verb}`, label] as const),
  );

describe.each([
  ["en", en],
  ["es", es],
] as const)("audit actions in %s", (_, messages) => {
  test("every action has a label, and every label an action", () => {
    const labels = labelsOf(messages as typeof en);
    expect(labels.map(([action]) => action).sort()).toEqual([...auditActions].sort());
    for (const [action, label] of labels) {
      expect(label.trim().length, action).toBeGreaterThan(3);
      expect(label, action).not.toContain(".");
      expect(label, action).not.toContain("_");
    }
  });
});

test("the two languages do not share a label, except by chance of a loanword", () => {
  const english = new Map(labelsOf(en));
  const same = labelsOf(es as typeof en).filter(([action, label]) => english.get(action) === label);
  expect(same).toEqual([]);
});

test("isAuditAction knows the written actions and nothing else", () => {
  expect(isAuditAction("merchant.created")).toBe(true);
  expect(isAuditAction("webhook_delivery.retried")).toBe(true);
  expect(isAuditAction("merchant.deleted")).toBe(false);
  expect(isAuditAction("toString")).toBe(false);
});
