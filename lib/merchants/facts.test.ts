import { describe, expect, test } from "vitest";

import type { MerchantRow } from "../db/schema";
import example from "../schemas/examples/merchant-application.json" with { type: "json" };
import { receiptContact } from "./facts";

const merchant = (application: Record<string, unknown>) => ({ application }) as unknown as MerchantRow;

describe("how a receipt says to reach the business", () => {
  test("the DBA's address on one line, the business phone as dialled at home, the contact's e-mail", () => {
    expect(receiptContact(merchant(example))).toEqual({
      address: "125 Market St, San Francisco, CA 94103",
      phone: "(415) 555-0124",
      email: "mei@example.com",
    });
  });

  test("the legal address and phone when the business has none of its own; a foreign number in full", () => {
    const { dba_address: _dba, business_phone: _phone, ...rest } = example;
    expect(receiptContact(merchant({ ...rest, dba_address: null, legal_phone: "+442079460000" }))).toEqual({
      address: "123 Market St, San Francisco, CA 94103",
      phone: "+44 20 7946 0000",
      email: "mei@example.com",
    });
  });

  test("nothing known: nothing said", () => {
    expect(receiptContact(merchant({}))).toEqual({ address: null, phone: null, email: null });
  });
});
