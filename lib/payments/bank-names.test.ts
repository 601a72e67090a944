import { describe, expect, test } from "vitest";

import { abaChecksumValid } from "../schemas/aba";
import { bankNameOf } from "./bank-names";

describe("bank names", () => {
  test("every known routing number passes the ABA checksum", () => {
    for (const [routing, name] of [
      ["011000015", "Federal Reserve Bank of Boston"],
      ["021000021", "JPMorgan Chase Bank"],
      ["021000089", "Citibank"],
      ["026009593", "Bank of America"],
      ["121000248", "Wells Fargo Bank"],
      ["322271627", "JPMorgan Chase Bank"],
    ] as const) {
      expect(abaChecksumValid(routing)).toBe(true);
      expect(bankNameOf(routing)).toBe(name);
    }
    expect(bankNameOf("110000000")).toBeNull();
  });
});
