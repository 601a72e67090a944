import { describe, expect, test } from "vitest";

import { servedOnCustomDomain } from "./hosts";

describe("what an ISV's custom domain serves", () => {
  test.each([
    "/onboarding",
    "/onboarding/business",
    "/onboarding?x=1",
    "/onboarding/complete?to=x",
    "/pay/pr_abc",
    "/_next/static/chunk.js",
    "/icon.svg",
  ])("%s: yes", (path) => expect(servedOnCustomDomain(path)).toBe(true));
  test.each(["/", "/dashboard", "/dashboard/settings", "/sign-in", "/dashboard-preview", "/onboardingx", "/payment"])(
    "%s: no",
    (path) => expect(servedOnCustomDomain(path)).toBe(false),
  );
});
