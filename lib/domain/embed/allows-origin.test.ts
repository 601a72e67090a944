import { expect, test } from "vitest";

import type { AccountRow } from "../../db/schema";
import { allowsOrigin } from "./account-sessions";

// Which host pages may frame an ISV's components: its settings' origins, exactly (docs/reference.md
// section 15). Anything that only starts or ends like an allowed origin is another site.

const isv = {
  id: "acct_x",
  settings: { embed_allowed_origins: ["https://isv.example", "http://localhost:5173"] },
} as unknown as AccountRow;

test.each([
  ["https://isv.example", true],
  ["http://localhost:5173", true],
  ["https://isv.example.attacker.test", false],
  ["https://attacker.test/https://isv.example", false],
  ["https://evil-isv.example", false],
  ["https://isv.example:443", false],
  ["https://isv.example/", false],
  ["http://isv.example", false],
  ["https://ISV.example", false],
  ["http://localhost:5174", false],
  ["null", false],
  ["", false],
])("%j may frame the components: %s", (origin, expected) => {
  expect(allowsOrigin(isv, origin)).toBe(expected);
});

test("an ISV with no origins listed lets nobody embed", () => {
  const none = { id: "acct_y", settings: { embed_allowed_origins: [] } } as unknown as AccountRow;
  expect(allowsOrigin(none, "https://isv.example")).toBe(false);
});
