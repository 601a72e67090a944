import { expect, test } from "vitest";

import { escapeHtml } from "./html";

test("escapeHtml neutralises markup in text and attributes", () => {
  expect(escapeHtml(`<a href="x" onclick='y'>Tom & Jerry</a>`)).toBe(
    "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;",
  );
  expect(escapeHtml("plain")).toBe("plain");
});
