import { describe, expect, test } from "vitest";

import type { MerchantRow, MerchantSessionRow } from "../db/schema";
import type { FrameSession } from "../domain/embed/account-sessions";
import { homeActor } from "./actor";

// Who the audit log says acted in the merchant's home (docs/reference.md section 17).
const merchant = { id: "mer_1", isvAccountId: "acct_isv" } as MerchantRow;
const session = (via: "isv" | "email") => ({ via }) as MerchantSessionRow;
const frame = { accountSessionId: "as_1", merchantId: "mer_1" } as FrameSession;

describe("the home's actor", () => {
  test("the merchant in its own home: via home, with the client's address", () => {
    expect(homeActor({ merchant, frame: null, session: session("email") }, "198.51.100.4")).toEqual({
      type: "merchant",
      id: "mer_1",
      via: "home",
      clientAddress: "198.51.100.4",
    });
  });

  test("the merchant inside an ISV's page (an embedded component): via embedded, never home", () => {
    expect(homeActor({ merchant, frame, session: null }, null)).toEqual({
      type: "merchant",
      id: "mer_1",
      via: "embedded",
      clientAddress: null,
    });
  });

  test("a session the ISV's own login link opened: the ISV acting in the merchant's home", () => {
    expect(homeActor({ merchant, frame: null, session: session("isv") }, "203.0.113.9")).toEqual({
      type: "isv",
      id: "acct_isv",
      via: "home",
      clientAddress: "203.0.113.9",
    });
  });
});
