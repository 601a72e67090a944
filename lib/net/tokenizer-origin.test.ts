import { describe, expect, test } from "vitest";

import { tokenizerOriginFor } from "./tokenizer-origin";

describe("the card frame's origin", () => {
  test.each([
    // Configured: its origin, whatever path was written.
    [
      "https://pay.example.com",
      "https://tokenizer.pay.example.com/x",
      { origin: "https://tokenizer.pay.example.com", separate: true },
    ],
    // Configured as the service's own: shared.
    ["https://pay.example.com", "https://pay.example.com", { origin: "https://pay.example.com", separate: false }],
    // Development: a second loopback name on the same port.
    [
      "http://localhost:3000",
      "http://tokenizer.localhost:3000",
      { origin: "http://tokenizer.localhost:3000", separate: true },
    ],
    // Unset: shared, loopback or not.
    ["http://127.0.0.1:4123", undefined, { origin: "http://127.0.0.1:4123", separate: false }],
    // A public base URL without TOKENIZER_ORIGIN: shared (the server warns).
    ["https://pay.example.com", undefined, { origin: "https://pay.example.com", separate: false }],
  ])("%s with %s", (base, configured, expected) => {
    expect(tokenizerOriginFor(base, configured)).toEqual(expected);
  });
});
