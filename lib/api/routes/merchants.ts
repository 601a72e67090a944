import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { initialDefaultCapabilities } from "../../schemas/capabilities";
import { createMerchantSchema, onboardingStatuses, updateMerchantSchema } from "../../schemas/merchant";
import { exampleApplication, exampleMerchant, merchantResponseSchema } from "../../schemas/merchant-response";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

const example = { ...exampleMerchant, default_capabilities: initialDefaultCapabilities };
import { createMerchant, type CreateMerchantInput } from "../../domain/merchants/create-merchant";
import { findMerchant } from "../../domain/merchants/find-merchant";
import { listMerchants } from "../../domain/merchants/list-merchants";
import { merchantJson, merchantsJson } from "../../domain/merchants/merchant-json";
import { releaseDevice } from "../../domain/merchants/release-device";
import { updateMerchant, type UpdateMerchantInput } from "../../domain/merchants/update-merchant";
import { defaultPayoutSettings } from "../../domain/payouts/settings";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { callerAccount } from "../caller-account";

const idParam = z.object({
  merchant_id: pathId("merchant_id", "mer_4kZ2qV9sT1pLmN8xRw3YbC"),
});

// POST /v1/merchants: create a merchant (or return the one with this IMEI)
const createMerchantRoute = createRoute({
  method: "post",
  path: "/v1/merchants",
  tags: ["Merchants"],
  summary: "Create a merchant",
  description:
    "`phone` is required (E.164, or a 10-digit US number). Any onboarding information may be prefilled; each field given is validated. A `device.imei` this ISV already has returns that merchant unchanged. Without `merchant.capabilities` the ISV's default capabilities apply. Only `monthly_fee`, `txn_fee_fixed` and `txn_fee_percent` of the ACH options, and the two `fees.monthly` fields, can be overridden.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createMerchantSchema, {
        phone: "+14155550123",
        device: { imei: "490154203237518" },
        merchant: exampleApplication,
      }),
    },
  },
  responses: {
    200: { description: "The merchant", ...jsonContent(merchantResponseSchema, example) },
    ...commonErrors,
  },
});

// GET /v1/merchants: list merchants, newest first
const listMerchantsRoute = createRoute({
  method: "get",
  path: "/v1/merchants",
  tags: ["Merchants"],
  summary: "List merchants",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { query: listQuerySchema.extend({ lead_onboarding_status: z.enum(onboardingStatuses).optional() }) },
  responses: {
    200: {
      description: "A page of merchants",
      ...jsonContent(listEnvelope(merchantResponseSchema, "MerchantList"), {
        object: "list",
        data: [example],
        has_more: false,
        url: "/v1/merchants",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/merchants/{merchant_id}: one merchant
const getMerchantRoute = createRoute({
  method: "get",
  path: "/v1/merchants/{merchant_id}",
  tags: ["Merchants"],
  summary: "Get a merchant",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The merchant", ...jsonContent(merchantResponseSchema, example) },
    ...commonErrors,
  },
});

// PATCH /v1/merchants/{merchant_id}: prefill while onboarding is open; deactivate; payouts
const updateMerchantRoute = createRoute({
  method: "patch",
  path: "/v1/merchants/{merchant_id}",
  tags: ["Merchants"],
  summary: "Update a merchant",
  description:
    "Onboarding information and `phone` can change while `lead_onboarding_status` is `NOT_STARTED` or `IN_PROGRESS` (else 409 `invalid_state`); `deactivated`, `automatic_payouts` and `payout_schedule` at any time (the schedule's fields given replace the merchant's; an anchor goes with its interval: `weekly_anchor` with `weekly`, `monthly_anchor` with `monthly`). Objects merge; `null` removes an optional field such as `owner_three`.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    params: idParam,
    body: {
      required: true,
      ...jsonContent(updateMerchantSchema, {
        merchant: {
          doing_business_as: "Golden Gate Noodles",
          bank_account: { bank_name: "Example Community Bank" },
        },
      }),
    },
  },
  responses: {
    200: { description: "The updated merchant", ...jsonContent(merchantResponseSchema, example) },
    ...commonErrors,
    409: conflict409,
  },
});

// POST /v1/merchants/{merchant_id}/device/release: the ISV takes a device (an IMEI) back from a merchant
const releaseDeviceRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/device/release",
  tags: ["Merchants"],
  summary: "Release a merchant's device",
  description:
    "Clears the merchant's device so that its IMEI is free at once: the way out when a merchant typed, in its own onboarding, an IMEI that belongs to another merchant (`POST /v1/merchants` with that IMEI answers 400 `imei_in_use` naming the merchant that holds it). The merchant then chooses a device again (or skips where allowed); `merchant.updated` is sent. 409 `invalid_state` when the merchant has no device or its device is provisioned (`imei_status` `ACTIVE`).",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The merchant, without a device", ...jsonContent(merchantResponseSchema, example) },
    ...commonErrors,
    409: conflict409,
  },
});

export function merchantRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createMerchantRoute, async (c) => {
    const isv = await callerAccount(c);
    const { row, created } = await createMerchant(c.get("db"), isv, c.req.valid("json") as CreateMerchantInput);
    // A merchant just made has the default payout settings: nothing to read.
    return c.json(await merchantJson(c.get("db"), row, isv, created ? defaultPayoutSettings : undefined), 200);
  });

  app.openapi(listMerchantsRoute, async (c) => {
    const accountId = c.get("principal").accountId;
    const { rows, hasMore } = await listMerchants(c.get("db"), accountId, c.req.valid("query"));
    const isv = await callerAccount(c);
    return c.json(toList(await merchantsJson(c.get("db"), rows, isv), hasMore, "/v1/merchants"), 200);
  });

  app.openapi(getMerchantRoute, async (c) => {
    const accountId = c.get("principal").accountId;
    const row = await findMerchant(c.get("db"), accountId, c.req.valid("param").merchant_id);
    const isv = await callerAccount(c);
    return c.json(await merchantJson(c.get("db"), row, isv), 200);
  });

  app.openapi(releaseDeviceRoute, async (c) => {
    const { row, isv } = await releaseDevice(
      c.get("db"),
      c.get("principal").accountId,
      c.req.valid("param").merchant_id,
    );
    return c.json(await merchantJson(c.get("db"), row, isv), 200);
  });

  app.openapi(updateMerchantRoute, async (c) => {
    const { row, isv } = await updateMerchant(
      c.get("db"),
      c.get("principal").accountId,
      c.req.valid("param").merchant_id,
      c.req.valid("json") as UpdateMerchantInput,
    );
    return c.json(await merchantJson(c.get("db"), row, isv), 200);
  });
}
