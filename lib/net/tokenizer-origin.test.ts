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
    // Unset on loopback: the other loopback name, same port (isolated by default, every browser resolves it).
    ["http://127.0.0.1:4123", undefined, { origin: "http://localhost:4123", separate: true }],
    ["http://localhost:3000", undefined, { origin: "http://127.0.0.1:3000", separate: true }],
    ["http://[::1]:3000", undefined, { origin: "http://localhost:3000", separate: true }],
    // Shared on purpose: configured as the service's own origin.
    ["http://localhost:3000", "http://localhost:3000/", { origin: "http://localhost:3000", separate: false }],
    // A public base URL without TOKENIZER_ORIGIN: shared (the server warns).
    ["https://pay.example.com", undefined, { origin: "https://pay.example.com", separate: false }],
  ])("%s with %s", (base, configured, expected) => {
    expect(tokenizerOriginFor(base, configured)).toEqual(expected);
  });
});
