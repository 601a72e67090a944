import { describe, expect, test } from "vitest";

import { abaChecksumValid } from "../schemas/aba";
import { bankNameOf } from "./bank-names";

describe("bank names", () => {
  test("every known routing number passes the ABA checksum", () => {
    for (const routing of ["011000015", "021000021", "021000089", "026009593", "121000248", "322271627"]) {
      expect(abaChecksumValid(routing)).toBe(true);
      expect(bankNameOf(routing)).toBeTruthy();
    }
    expect(bankNameOf("110000000")).toBeNull();
  });
});
