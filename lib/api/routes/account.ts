import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { accountJson } from "../../domain/accounts/account-json";
import { payoutAccountCallerOf } from "../../domain/accounts/payout-account-change";
import { updateAccount } from "../../domain/accounts/update-account";
import { verifyCustomDomain } from "../../domain/accounts/verify-custom-domain";
import { accountSchema, initialSettings, updateAccountSchema } from "../../schemas/account";
import { initialDefaultCapabilities } from "../../schemas/capabilities";
import { defaultCostProfile } from "../../schemas/cost-profile";
import { callerAccount } from "../caller-account";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, security } from "../openapi";

const exampleAccount = {
  object: "account",
  id: "acct_4kZ2qV9sT1pLmN8xRw3YbC",
  type: "isv",
  account_sid: "AC5f0c1e2d3b4a59687766554433221100",
  name: "Acme POS",
  defaults: {
    display_name: "Acme POS",
    logo: "https://acme.example/logo.svg",
    primary_color: "#1d4ed8",
    secondary_color: "#0f172a",
    redirect_url: "https://acme.example/onboarded",
    support: { email: "support@acme.example" },
  },
  default_capabilities: initialDefaultCapabilities,
  settings: initialSettings,
  custom_domain_verification: null,
  cost_profile: defaultCostProfile,
  api_version: "2026-11-27",
  payout_bank_account: null,
  payouts_frozen_at: null,
  created_at: "2026-11-01T09:30:00.000Z",
};

// GET /v1/account: the ISV's settings
const getYourAccountSettingsRoute = createRoute({
  method: "get",
  path: "/v1/account",
  tags: ["Account"],
  summary: "Get your account and its settings",
  security: security.isv,
  middleware: [isvOnly] as const,
  responses: {
    200: { description: "The account", ...jsonContent(accountSchema, exampleAccount) },
    ...commonErrors,
  },
});

// PATCH /v1/account: change branding, default capabilities and onboarding settings
const updateYourSettingsRoute = createRoute({
  method: "patch",
  path: "/v1/account",
  tags: ["Account"],
  summary: "Update your settings",
  description:
    "Each object is merged into the stored one; `null` clears an optional field. The result is validated whole: every problem is answered at once and nothing is saved from an invalid request.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(updateAccountSchema, {
        defaults: { primary_color: "#0e7490" },
        settings: { onboarding_link_ttl_seconds: 172800 },
      }),
    },
  },
  responses: { 200: { description: "The updated account", ...jsonContent(accountSchema) }, ...commonErrors },
});

// POST /v1/account/custom_domain/verify: look up the TXT record that proves the custom domain is the ISV's
const verifyYourCustomDomainRoute = createRoute({
  method: "post",
  path: "/v1/account/custom_domain/verify",
  tags: ["Account"],
  summary: "Verify your custom domain",
  description:
    "Looks up the DNS TXT record named in `custom_domain_verification.record`. When it holds the value shown, the domain is verified: onboarding links, pay pages and the wizard use it from then on (until then they stay on this service's host). 409 `custom_domain_unverified` when the record is not found (DNS changes can take a while), `custom_domain_taken` when another account verified the domain first, `invalid_state` without a custom domain. Verifying a verified domain changes nothing. In sandbox, `POST /v1/test_helpers/account/custom_domain/verify` skips the lookup.",
  security: security.isv,
  middleware: [isvOnly] as const,
  responses: {
    200: { description: "The account, its domain verified", ...jsonContent(accountSchema) },
    ...commonErrors,
  },
});

export function accountRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(getYourAccountSettingsRoute, async (c) =>
    c.json(await accountJson(c.get("db"), await callerAccount(c)), 200),
  );

  app.openapi(updateYourSettingsRoute, async (c) =>
    c.json(
      await accountJson(
        c.get("db"),
        await updateAccount(
          c.get("db"),
          c.get("principal").accountId,
          c.req.valid("json"),
          payoutAccountCallerOf(c.get("principal")),
        ),
      ),
      200,
    ),
  );

  app.openapi(verifyYourCustomDomainRoute, async (c) =>
    c.json(await accountJson(c.get("db"), await verifyCustomDomain(c.get("db"), c.get("principal").accountId)), 200),
  );
}
