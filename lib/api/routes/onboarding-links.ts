import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { createOnboardingLink } from "../../domain/onboarding/create-onboarding-link";
import { httpUrl } from "../../schemas/atoms";
import { onboardingLinkResponseSchema } from "../../schemas/merchant-response";
import { serializeOnboardingLink } from "../../serializers/onboarding-link";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, security } from "../openapi";

const createLinkSchema = z
  .strictObject({
    merchant_id: z.string().min(1).max(64),
    type: z.enum(["account_onboarding"], { error: "must be account_onboarding" }),
    return_url: httpUrl.optional(),
    redirect_url: httpUrl.optional().meta({ description: "Alias of return_url" }),
    refresh_url: httpUrl.optional(),
    state: z.string().max(512).optional(),
    allow_skip_device_selection: z.boolean().optional(),
  })
  .meta({ id: "CreateOnboardingLinkRequest" });

// POST /v1/onboarding_links: a url that launches the merchant into the hosted onboarding flow
const createOnboardingLinkRoute = createRoute({
  method: "post",
  path: "/v1/onboarding_links",
  tags: ["Onboarding links"],
  summary: "Create an onboarding link",
  description:
    "The `url` opens the hosted onboarding for the merchant; it is valid for the ISV's `settings.onboarding_link_ttl_seconds` (24 hours by default) and may be opened many times while valid. Creating a link expires every earlier link of the merchant at once. The url is returned only here. On completion the browser goes to `return_url` (alias `redirect_url`) with `merchant_id`, `lead_onboarding_status` and `state`; an expired link offers `refresh_url`.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createLinkSchema, {
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        type: "account_onboarding",
        return_url: "https://acme.example/onboarding/done",
        refresh_url: "https://acme.example/onboarding/refresh",
        state: "session-42",
      }),
    },
  },
  responses: {
    200: {
      description: "The link",
      ...jsonContent(onboardingLinkResponseSchema, {
        object: "onboarding_link",
        id: "lnk_2bX9qV9sT1pLmN8xRw3YbC",
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        type: "account_onboarding",
        url: "http://localhost:3000/onboard/Zq8w1mN4pL2kR7tY9vB3xC6dF0gH5jS8aE1uI4oP7qW",
        return_url: "https://acme.example/onboarding/done",
        redirect_url: "https://acme.example/onboarding/done",
        refresh_url: "https://acme.example/onboarding/refresh",
        state: "session-42",
        allow_skip_device_selection: null,
        expires_at: "2026-11-02T09:30:00.000Z",
        created_at: "2026-11-01T09:30:00.000Z",
      }),
    },
    ...commonErrors,
    409: conflict409,
  },
});

export function onboardingLinkRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createOnboardingLinkRoute, async (c) => {
    const { link, url } = await createOnboardingLink(c.get("db"), c.get("principal").accountId, c.req.valid("json"));
    return c.json(serializeOnboardingLink(link, url), 200);
  });
}
