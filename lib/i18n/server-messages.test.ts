import { expect, test } from "vitest";

import en from "./server-messages/en.json" with { type: "json" };
import es from "./server-messages/es.json" with { type: "json" };

// The server's messages (e-mails, texts, the tokenizer frame) exist in every language, key for key,
// each with the same ICU arguments: a message missing in Spanish would reach a customer as its key.
const leaves = (value: unknown, path = ""): [string, string][] =>
  typeof value === "string"
    ? [[path, value]]
    : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
const args = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("every server message exists in English and Spanish, with the same arguments", () => {
  const english = new Map(leaves(en));
  const spanish = new Map(leaves(es));
  expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
  for (const [key, message] of english) expect(args(spanish.get(key)!), key).toEqual(args(message));
  expect(english.size).toBeGreaterThan(30);
});
