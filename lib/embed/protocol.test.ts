import fs from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

import { embedComponents } from "../schemas/account-sessions";
import { elementOf, eventOf, frameTitleOf, loadErrorCodes } from "./protocol";

// The public types ISVs copy (v1.d.ts) say what the protocol does: the same components, elements,
// events and error codes. A name added on one side and not the other fails here.
const types = fs.readFileSync(path.join(import.meta.dirname, "v1.d.ts"), "utf8");
const block = (start: RegExp) => {
  const from = types.search(start);
  expect(from, String(start)).toBeGreaterThanOrEqual(0);
  return types.slice(from, types.indexOf(";", types.indexOf("=", from)) + 1);
};
const quoted = (text: string) => [...text.matchAll(/"([a-z_-]+)"/g)].map((m) => m[1]).sort();
const section = (start: string) => {
  const from = types.indexOf(start);
  return types.slice(from, types.indexOf("}", from));
};

describe("the embedded components' protocol and their public types", () => {
  test("every component has its element and frame title, and v1.d.ts names them", () => {
    expect(Object.keys(elementOf).sort()).toEqual([...embedComponents].sort());
    expect(Object.keys(frameTitleOf).sort()).toEqual([...embedComponents].sort());
    expect(quoted(block(/export type OnbComponentName/))).toEqual([...embedComponents].sort());
    expect(quoted(section("interface HTMLElementTagNameMap"))).toEqual(Object.values(elementOf).sort());
  });

  test("the load-error codes and the events are the ones v1.d.ts declares", () => {
    const codes = block(/export type OnbLoadErrorCode/).replace(/\/\*\*[\s\S]*?\*\//g, "");
    expect(quoted(codes)).toEqual([...loadErrorCodes].sort());
    expect(quoted(section("export interface OnbEventMap"))).toEqual(Object.values(eventOf).sort());
  });
});
