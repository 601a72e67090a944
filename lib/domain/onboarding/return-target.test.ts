import { describe, expect, test } from "vitest";

import type { CheckedSession } from "../../auth/onboarding-session";
import { returnTarget } from "./session";

const session = (returnUrl: string | null, status = "COMPLETED", state: string | null = null) =>
  ({
    link: { returnUrl, state },
    isv: { defaults: { display_name: "Acme" } },
    merchant: { id: "mer_1", status },
  }) as unknown as CheckedSession;

describe("returnTarget (the completion page's redirect)", () => {
  const s = session("https://acme.example", "COMPLETED", "st");
  const built = "https://acme.example/?merchant_id=mer_1&lead_onboarding_status=COMPLETED&state=st";

  test("with no ?to=, the URL the server builds", () => {
    expect(returnTarget(s)).toBe(built);
  });

  test("the submit answer's own URL is kept, with the status it reported", () => {
    expect(returnTarget(session("https://acme.example", "APPROVED", "st"), built)).toBe(built);
  });

  test.each([
    "https://acme.example@attacker.test/",
    "https://acme.example.attacker.test/?merchant_id=mer_1&lead_onboarding_status=COMPLETED&state=st",
    "https://user:pw@acme.example/?merchant_id=mer_1&lead_onboarding_status=COMPLETED&state=st",
    "https://acme.example/other?merchant_id=mer_1&lead_onboarding_status=COMPLETED&state=st",
    "https://acme.example/?merchant_id=mer_2&lead_onboarding_status=COMPLETED&state=st",
    "https://acme.example/?merchant_id=mer_1&lead_onboarding_status=HACKED&state=st",
    "https://acme.example/?merchant_id=mer_1&lead_onboarding_status=COMPLETED&state=st&next=https://attacker.test",
    "javascript:alert(1)",
    "not a url",
  ])("%s gives way to the server's URL", (to) => {
    expect(returnTarget(s, to)).toBe(built);
  });

  test("no return URL anywhere: no redirect", () => {
    expect(returnTarget(session(null), built)).toBeNull();
  });
});
