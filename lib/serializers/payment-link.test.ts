import { describe, expect, test } from "vitest";

import { type PaymentLinkJson, paymentLinkState } from "./payment-link";

const link = (over: Partial<PaymentLinkJson>) =>
  ({ active: true, max_uses: null, paid_count: 0, expires_at: null, ...over }) as PaymentLinkJson;

describe("paymentLinkState", () => {
  test("used up before expired before off", () => {
    expect(paymentLinkState(link({}), 1_000)).toBe("on");
    expect(paymentLinkState(link({ active: false }), 1_000)).toBe("off");
    expect(paymentLinkState(link({ expires_at: 1_000 }), 1_000)).toBe("expired");
    expect(paymentLinkState(link({ expires_at: 1_001 }), 1_000)).toBe("on");
    expect(paymentLinkState(link({ max_uses: 2, paid_count: 2, expires_at: 1, active: false }), 1_000)).toBe("used_up");
  });
});
