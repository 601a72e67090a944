import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, security } from "../openapi";
import { accountSchema, initialSettings, updateAccountSchema } from "../../schemas/account";
import { initialDefaultCapabilities } from "../../schemas/capabilities";
import { updateAccount } from "../../domain/accounts/update-account";
import { serializeAccount } from "../../serializers/account";
import { callerAccount } from "../caller-account";

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
  created_at: "2026-11-01T09:30:00.000Z",
};

export function accountRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /v1/account: the ISV's settings
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/account",
      tags: ["Account"],
      summary: "Get your account and its settings",
      security: security.isv,
      middleware: [isvOnly] as const,
      responses: { 200: { description: "The account", ...jsonContent(accountSchema, exampleAccount) }, ...commonErrors },
    }),
    async (c) => c.json(serializeAccount(await callerAccount(c)), 200),
  );

  // PATCH /v1/account: change branding, default capabilities and onboarding settings
  app.openapi(
    createRoute({
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
          ...jsonContent(updateAccountSchema, { defaults: { primary_color: "#0e7490" }, settings: { onboarding_link_ttl_seconds: 172800 } }),
        },
      },
      responses: { 200: { description: "The updated account", ...jsonContent(accountSchema) }, ...commonErrors },
    }),
    async (c) => c.json(serializeAccount(await updateAccount(c.var.db, c.var.principal!.accountId, c.req.valid("json"))), 200),
  );
}
