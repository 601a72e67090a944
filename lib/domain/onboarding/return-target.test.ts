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

  test("the URL the server builds, with the merchant's status now", () => {
    expect(returnTarget(s)).toBe(built);
    // Approved since the submit answered COMPLETED: the return URL says APPROVED, as the page does.
    expect(returnTarget(session("https://acme.example", "APPROVED", "st"))).toBe(
      built.replace("COMPLETED", "APPROVED"),
    );
    expect(returnTarget(session("https://acme.example", "IN_PROGRESS", null))).toBe(
      "https://acme.example/?merchant_id=mer_1&lead_onboarding_status=IN_PROGRESS",
    );
  });

  test("no return URL anywhere: no redirect", () => {
    expect(returnTarget(session(null))).toBeNull();
  });
});
