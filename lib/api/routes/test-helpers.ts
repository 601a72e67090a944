import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { accountJson } from "../../domain/accounts/account-json";
import { getAccount } from "../../domain/accounts/get-account";
import { verifyCustomDomain } from "../../domain/accounts/verify-custom-domain";
import { withLedgerFact } from "../../domain/charges/ledger-charge";
import { merchantJson } from "../../domain/merchants/merchant-json";
import { listOutbox } from "../../domain/notifications/list-outbox";
import { presentCard } from "../../domain/payments/present-card";
import { generateResidual } from "../../domain/residuals/generate-residual";
import { findScopedMerchant } from "../../domain/scope";
import { settleAll } from "../../domain/settlements/run-settlement";
import { generateStatement } from "../../domain/statements/generate-statement";
import { reviewMerchant } from "../../domain/underwriting/review-merchant";
import { accountSchema } from "../../schemas/account";
import { chargeSchema } from "../../schemas/charges";
import { listEnvelope, toList } from "../../schemas/list";
import { merchantResponseSchema } from "../../schemas/merchant-response";
import { presentCardSchema } from "../../schemas/payment-requests";
import { generateResidualSchema, residualSchema } from "../../schemas/residuals";
import { settlementSchema } from "../../schemas/settlements";
import { statementDetailSchema } from "../../schemas/statements";
import { chargeSerializerFor } from "../../serializers/charge";
import { serializeOutboxMessage } from "../../serializers/outbox";
import { serializeResidual } from "../../serializers/residual";
import { serializeSettlement } from "../../serializers/settlement";
import { serializeStatementDetail } from "../../serializers/statement";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

const idParam = z.object({
  merchant_id: pathId("merchant_id", "mer_4kZ2qV9sT1pLmN8xRw3YbC"),
});
const declineBody = z.strictObject({ reason: z.string().max(500).optional() }).meta({ id: "TestDeclineRequest" });
const requestBody = z
  .strictObject({ field: z.string().min(1).max(200), reason: z.string().min(1).max(500) })
  .meta({ id: "TestRequestInformationRequest" });
const emailSchema = z
  .object({
    object: z.enum(["email", "sms"]),
    channel: z.enum(["email", "sms"]),
    id: z.string(),
    kind: z.string(),
    to: z.string(),
    sender_name: z.string().nullable().meta({
      description:
        "The From line's display name: the business the customer pays (receipts, invoices) or the ISV's brand; the address is the deployment's SMTP_FROM.",
    }),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    locale: z.string(),
    merchant_id: z.string().nullable(),
    transport: z.enum(["outbox", "smtp"]),
    sent_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "OutboxEmail" });

/** Sandbox only (production answers 404 for every /v1/test_helpers path): decide a submitted application, read the outbox. */
export function testHelperRoutes(app: OpenAPIHono<AppEnv>) {
  const decide = (
    action: "approve" | "decline" | "request_information",
    summary: string,
    body?: z.ZodType,
    example?: unknown,
  ) =>
    app.openapi(
      createRoute({
        method: "post",
        path: `/v1/test_helpers/merchants/{merchant_id}/${action}`,
        tags: ["Test helpers (sandbox)"],
        summary,
        description: "Sandbox only. The merchant must be COMPLETED (submitted), else 409.",
        security: security.isv,
        middleware: [isvOnly] as const,
        request: { params: idParam, ...(body ? { body: { required: true, ...jsonContent(body, example) } } : {}) },
        responses: {
          200: { description: "The merchant after the decision", ...jsonContent(merchantResponseSchema) },
          ...commonErrors,
          409: conflict409,
        },
      }),
      async (c) => {
        const accountId = c.get("principal").accountId;
        const json = body ? ((await c.req.json()) as Record<string, string>) : {};
        const decision =
          action === "approve"
            ? { action: "approve" as const }
            : action === "decline"
              ? { action: "decline" as const, reason: json.reason }
              : { action: "request" as const, field: json.field ?? "", reason: json.reason ?? "" };
        const row = await reviewMerchant(
          c.get("db"),
          { isvAccountId: accountId },
          (c.req.valid("param") as { merchant_id: string }).merchant_id,
          decision,
          "test_helper",
        );
        const isv = await getAccount(c.get("db"), accountId);
        return c.json(await merchantJson(c.get("db"), row, isv), 200);
      },
    );
  // POST /v1/test_helpers/merchants/{id}/approve|decline|request_information: decide like an operator
  decide("approve", "Approve a submitted merchant");
  decide("decline", "Decline a submitted merchant", declineBody, { reason: "Testing a decline" });
  decide("request_information", "Request information from a submitted merchant", requestBody, {
    field: "merchant.bank_account.routing_number",
    reason: "Check the routing number",
  });

  // GET /v1/test_helpers/outbox: the e-mails sent for this account (newest first)
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/test_helpers/outbox",
      tags: ["Test helpers (sandbox)"],
      summary: "Read the e-mail outbox",
      security: security.isv,
      middleware: [isvOnly] as const,
      responses: {
        200: { description: "E-mails", ...jsonContent(listEnvelope(emailSchema, "OutboxList")) },
        ...commonErrors,
      },
    }),
    async (c) => {
      const rows = await listOutbox(c.get("db"), { accountId: c.get("principal").accountId, limit: 100 });
      return c.json(
        toList(
          rows.map((row) => serializeOutboxMessage(row, "isv")),
          false,
          "/v1/test_helpers/outbox",
        ),
        200,
      );
    },
  );

  // POST /v1/test_helpers/terminals/{terminal_id}/present_card: a customer presents a card at the terminal
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/test_helpers/terminals/{terminal_id}/present_card",
      tags: ["Test helpers (sandbox)"],
      summary: "Present a card at a terminal",
      description:
        "Sandbox only. Pays the terminal's open TERMINAL request with `card_number` (default 4242 4242 4242 4242; the contract's test cards decline) read by `card_entry_method` `CHIP` or `SWIPE`. Answers the charge: AUTHORIZED, or FAILED with `failure_reason` (the request then stays PENDING). 409 when the terminal has no open request.",
      security: security.isv,
      middleware: [withPaymentScope] as const,
      request: {
        params: z.object({
          terminal_id: pathId("terminal_id", "tml_7Qm2xP0aZk3LwN5sVb8RtY"),
        }),
        body: { required: true, ...jsonContent(presentCardSchema, { card_entry_method: "CHIP" }) },
      },
      responses: {
        200: { description: "The charge", ...jsonContent(chargeSchema) },
        ...commonErrors,
        409: conflict409,
      },
    }),
    async (c) => {
      const scope = c.get("scope");
      const result = await presentCard(c.get("db"), scope, c.req.valid("param").terminal_id, c.req.valid("json"));
      return c.json(chargeSerializerFor(scope)(await withLedgerFact(c.get("db"), result.charge), result.merchant), 200);
    },
  );

  // POST /v1/test_helpers/settlement/run: settle now (the caller's merchants, or one)
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/test_helpers/settlement/run",
      tags: ["Test helpers (sandbox)"],
      summary: "Run the settlement now",
      description:
        "Sandbox only. Settles, as the daily job does at 00:00 UTC, every AUTHORIZED charge and unsettled refund made until now of the caller's merchants (or of `merchant_id`). Answers the settlements made; running again makes none (each charge is settled once).",
      security: security.isv,
      middleware: [withPaymentScope] as const,
      request: {
        body: {
          required: false,
          ...jsonContent(
            z.strictObject({ merchant_id: z.string().max(64).optional() }).meta({ id: "TestSettlementRunRequest" }),
            {},
          ),
        },
      },
      responses: {
        200: {
          description: "The settlements made",
          ...jsonContent(listEnvelope(settlementSchema, "SettlementRunList")),
        },
        ...commonErrors,
      },
    }),
    async (c) => {
      const scope = c.get("scope");
      const body = (c.req.valid("json") ?? {}) as { merchant_id?: string };
      const made = await settleAll(c.get("db"), new Date(), {
        isvAccountId: scope.isvAccountId,
        merchantId: scope.merchantId ?? body.merchant_id,
      });
      return c.json(toList(made.map(serializeSettlement), false, "/v1/test_helpers/settlement/run"), 200);
    },
  );

  // POST /v1/test_helpers/account/custom_domain/verify: mark the custom domain verified without DNS
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/test_helpers/account/custom_domain/verify",
      tags: ["Test helpers (sandbox)"],
      summary: "Mark your custom domain verified",
      description:
        "Sandbox only. What `POST /v1/account/custom_domain/verify` does once the TXT record is found, without looking it up.",
      security: security.isv,
      middleware: [isvOnly] as const,
      responses: {
        200: { description: "The account, its domain verified", ...jsonContent(accountSchema) },
        ...commonErrors,
      },
    }),
    async (c) =>
      c.json(
        await accountJson(
          c.get("db"),
          await verifyCustomDomain(c.get("db"), c.get("principal").accountId, { skipLookup: true }),
        ),
        200,
      ),
  );

  // POST /v1/test_helpers/statements/generate: make a merchant's statement for a month now
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/test_helpers/statements/generate",
      tags: ["Test helpers (sandbox)"],
      summary: "Generate a statement now",
      description:
        "Sandbox only. Makes the merchant's statement for `period` (YYYY-MM; the current, unfinished month is allowed) as the monthly job does. A period that already has a statement answers it unchanged; a period without charges or refunds is a 400.",
      security: security.isv,
      middleware: [withPaymentScope] as const,
      request: {
        body: {
          required: true,
          ...jsonContent(
            z
              .strictObject({ merchant_id: z.string().min(1).max(64), period: z.string().max(7) })
              .meta({ id: "TestStatementGenerateRequest" }),
            {
              merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
              period: "2026-11",
            },
          ),
        },
      },
      responses: { 200: { description: "The statement", ...jsonContent(statementDetailSchema) }, ...commonErrors },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const merchant = await findScopedMerchant(c.get("db"), c.get("scope"), body.merchant_id);
      const { row } = await generateStatement(c.get("db"), merchant.id, body.period);
      return c.json(serializeStatementDetail(row), 200);
    },
  );

  // POST /v1/test_helpers/residuals/generate: make the ISV's residual for a month now
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/test_helpers/residuals/generate",
      tags: ["Test helpers (sandbox)"],
      summary: "Generate a residual now",
      description:
        "Sandbox only. Makes the ISV's residual for `period` (YYYY-MM, a month that is over: the current month or a later one is a 400) as the job on the 1st does for the month before. A period that has one answers it unchanged; residuals are made month after month (a month before the latest one made: 409 `invalid_state`).",
      security: security.isv,
      middleware: [isvOnly] as const,
      request: { body: { required: true, ...jsonContent(generateResidualSchema, { period: "2026-10" }) } },
      responses: {
        200: { description: "The residual", ...jsonContent(residualSchema) },
        409: conflict409,
        ...commonErrors,
      },
    }),
    async (c) => {
      const { row } = await generateResidual(c.get("db"), c.get("principal").accountId, c.req.valid("json").period);
      return c.json(serializeResidual(row), 200);
    },
  );
}
