import { expect, test } from "vitest";

import { isSameOrigin } from "./same-origin";

const request = (headers: Record<string, string>) =>
  new Request("http://shop.example/home/documents/upload", { method: "POST", headers });

test.each([
  [{ origin: "http://shop.example", host: "shop.example" }, true, true],
  [{ origin: "http://shop.example", host: "shop.example" }, false, true],
  [{ origin: "https://attacker.test", host: "shop.example" }, false, false],
  [{ origin: "null", host: "shop.example" }, false, false],
  [{ origin: "not a url", host: "shop.example" }, false, false],
  [{ origin: "http://shop.example.attacker.test", host: "shop.example" }, false, false],
  [{ host: "shop.example" }, false, true],
  [{ host: "shop.example" }, true, false],
])("%j (Origin required: %s) is same-origin: %s", (headers, required, expected) => {
  expect(isSameOrigin(request(headers), required)).toBe(expected);
});
