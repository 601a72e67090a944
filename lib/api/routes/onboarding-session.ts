import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { setCookie } from "hono/cookie";

import { initialSettings } from "../../schemas/account";
import { exampleMerchant, onboardingSessionResponseSchema } from "../../schemas/merchant-response";
import {
  agreementSignatureSchema,
  resumeLinkRequestSchema,
  resumeLinkResponseSchema,
  sessionPatchSchema,
  signAgreementSchema,
  submitResponseSchema,
} from "../../schemas/onboarding-session";
import type { AppEnv } from "../context";
import { allow, type Authorized } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, security } from "../openapi";

const exampleSession = {
  object: "onboarding_session",
  merchant_id: exampleMerchant.id,
  lead_onboarding_status: "IN_PROGRESS",
  phone: "+14155550123",
  merchant: exampleMerchant.merchant,
  device: exampleMerchant.device,
  device_selection: "selected",
  branding: exampleMerchant.defaults,
  steps: ["business", "owners", "bank", "product", "sales", "device", "review"]
    .map((id) => ({ id, complete: true, requested: false }))
    .concat([{ id: "agreement", complete: false, requested: false }]),
  requirements: { currently_due: [], errors: [], disabled_reason: "onboarding_incomplete", pending_verification: [] },
  verification: [],
  device_options: initialSettings.devices,
  device_selection_required: true,
  allow_skip_device_selection: false,
  return_url: "https://acme.example/onboarding/done",
  expires_at: "2026-11-02T09:30:00.000Z",
  agreement: { signed: false, name: null, signed_at: null },
};
import { getCookie } from "hono/cookie";

import { ONBOARDING_COOKIE } from "../../auth/cookies";
import { issueSessionToken, sessionCookieOptions } from "../../auth/onboarding-session";
import { getAgreement } from "../../domain/onboarding/get-agreement";
import { emailResumeLink } from "../../domain/onboarding/resume-link";
import {
  getSession,
  type SessionPatch,
  type SessionUse,
  submitSession,
  updateSession,
} from "../../domain/onboarding/session";
import { signAgreement } from "../../domain/onboarding/sign-agreement";
import { embedCookie } from "../../embed/frame";
import { isLocale, type Locale, LOCALE_COOKIE, negotiateLocale } from "../../i18n/locales";
import { agreementPdf } from "../../pdf/agreement-pdf";
import { documentLogo } from "../../pdf/logo";
import { getConnInfoAddress } from "../middleware/conn-info";

const onboardingOnly = allow({ kinds: ["onboarding"] });

/** A session in use stays alive: each answer renews the cookie (sliding expiry), up to its maximum life. */
async function renew(c: Context<Authorized>) {
  if (c.req.header("authorization")) return;
  // The principal itself, with when its session started: a renewal keeps that start, so a session
  // used all day still ends 12 hours after its link was opened.
  const p = c.get("principal");
  if (p.kind !== "onboarding") return;
  const { merchantId, linkId, accountId, startedAt } = p;
  setCookie(
    c,
    ONBOARDING_COOKIE,
    await issueSessionToken({ merchantId, linkId, accountId, startedAt }),
    sessionCookieOptions(Boolean(getCookie(c, embedCookie("onboarding")))),
  );
}

/** The session this request uses: the principal (onboardingOnly guarantees its kind) and the host it came to. */
function principal(c: Context<Authorized>): SessionUse {
  const p = c.get("principal");
  if (p?.kind !== "onboarding") throw new Error("onboarding route without an onboarding principal");
  return { merchantId: p.merchantId, linkId: p.linkId, accountId: p.accountId, host: c.req.header("host") };
}

export function onboardingSessionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "merchant-onboarding-session-token", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "The onboarding session: set as the `onboarding_session` cookie when a link is opened; also accepted as a Bearer token",
  });

  // GET /v1/onboarding/session: the merchant's application, branding and progress
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/onboarding/session",
      tags: ["Onboarding session"],
      summary: "Get the onboarding session",
      description:
        "Used by the hosted wizard. The application is masked; `steps` says which are complete; `requirements` what is still due.",
      security: security.onboarding,
      middleware: [onboardingOnly] as const,
      responses: {
        200: { description: "The session", ...jsonContent(onboardingSessionResponseSchema, exampleSession) },
        ...commonErrors,
      },
    }),
    async (c) => {
      const view = await getSession(c.get("db"), principal(c));
      await renew(c);
      return c.json(view, 200);
    },
  );

  // PATCH /v1/onboarding/session: save part of the application
  app.openapi(
    createRoute({
      method: "patch",
      path: "/v1/onboarding/session",
      tags: ["Onboarding session"],
      summary: "Save part of the application",
      description:
        'Any subset of the onboarding information, nested as in the reference; a device (`imei` or a `catalog_id` from the ISV\'s catalog) or `device_selection: "skipped"` where allowed. Every error is answered at once and nothing of an invalid request is saved. Only while the application is open (409 otherwise).',
      security: security.onboarding,
      middleware: [onboardingOnly] as const,
      request: {
        body: {
          required: true,
          ...jsonContent(sessionPatchSchema, {
            merchant: { bank_account: { routing_number: "021000021" } },
            device: { catalog_id: "pax-a920" },
          }),
        },
      },
      responses: {
        200: {
          description: "The session after the save",
          ...jsonContent(onboardingSessionResponseSchema, exampleSession),
        },
        ...commonErrors,
        409: conflict409,
      },
    }),
    async (c) => {
      const view = await updateSession(c.get("db"), principal(c), c.req.valid("json") as SessionPatch);
      await renew(c);
      return c.json(view, 200);
    },
  );

  const localeOf = (c: Context<Authorized>): Locale => {
    const chosen = getCookie(c, LOCALE_COOKIE);
    return isLocale(chosen) ? chosen : negotiateLocale(c.req.header("accept-language"));
  };

  // POST /v1/onboarding/session/agreement: owner one signs the generated agreement
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/onboarding/session/agreement",
      tags: ["Onboarding session"],
      summary: "Sign the merchant processing agreement",
      description:
        "Owner one types their full name as entered in the application. The time, IP address and user agent are recorded. The application must be complete; changing it afterwards clears the signature.",
      security: security.onboarding,
      middleware: [onboardingOnly] as const,
      request: { body: { required: true, ...jsonContent(signAgreementSchema, { name: "Mei Chen" }) } },
      responses: {
        200: {
          description: "The signature",
          ...jsonContent(agreementSignatureSchema, {
            name: "Mei Chen",
            signed_at: "2026-11-01T09:40:00.000Z",
            ip: "203.0.113.7",
            user_agent: "Mozilla/5.0",
            version: "2026-11",
            locale: "en",
            text_sha256: "3f1c9a0e7b5d2c4f8a6e1b9d0c7f3a5e2d8b4c6a1f9e0d7c3b5a2e8f4d6c1b9a",
          }),
        },
        ...commonErrors,
        409: conflict409,
      },
    }),
    async (c) => {
      const use = principal(c);
      const signature = await signAgreement(c.get("db"), use, {
        name: c.req.valid("json").name,
        ip: getConnInfoAddress(c),
        userAgent: c.req.header("user-agent") ?? "",
        locale: localeOf(c),
        host: use.host,
      });
      return c.json(signature, 200);
    },
  );

  // GET /v1/onboarding/session/agreement.pdf: the agreement (signed or not yet) as a PDF
  app.get("/v1/onboarding/session/agreement.pdf", onboardingOnly, async (c) => {
    const agreement = await getAgreement(c.get("db"), principal(c), localeOf(c));
    const bytes = await agreementPdf({
      document: agreement.document,
      branding: agreement.branding,
      logo: await documentLogo(agreement.branding),
      signature: agreement.signatureLine,
      locale: agreement.locale,
    });
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="merchant-agreement-${agreement.merchantId}.pdf"`,
      "Cache-Control": "no-store",
    });
  });

  // POST /v1/onboarding/session/submit: submit the application for underwriting
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/onboarding/session/submit",
      tags: ["Onboarding session"],
      summary: "Submit the application",
      description:
        "Checks the whole application: a 400 lists every missing or invalid field. Otherwise the status becomes `COMPLETED`, underwriting is queued, and `redirect_url` is where to send the browser (the return URL with `merchant_id`, `lead_onboarding_status` and `state`).",
      security: security.onboarding,
      middleware: [onboardingOnly] as const,
      responses: {
        200: {
          description: "Submitted",
          ...jsonContent(submitResponseSchema, {
            lead_onboarding_status: "COMPLETED",
            redirect_url:
              "https://acme.example/onboarding/done?merchant_id=mer_4kZ2qV9sT1pLmN8xRw3YbC&lead_onboarding_status=COMPLETED&state=session-42",
          }),
        },
        ...commonErrors,
        409: conflict409,
      },
    }),
    async (c) => c.json(await submitSession(c.get("db"), principal(c)), 200),
  );

  // POST /v1/onboarding/session/resume_link: save and finish later, by a link e-mailed to the merchant
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/onboarding/session/resume_link",
      tags: ["Onboarding session"],
      summary: "E-mail a link to finish later",
      description:
        '"Save and finish later": the answers are already saved at each step; this e-mails `email` a new onboarding link to the application (the same return URL, `state` and options as the link the session came from). The new link supersedes that one, so this session ends: the e-mailed link is the way back. At most 3 an hour per merchant (429 `rate_limited`). Audited as `onboarding_link.created` by the merchant in the wizard.',
      security: security.onboarding,
      middleware: [onboardingOnly] as const,
      request: { body: { content: { "application/json": { schema: resumeLinkRequestSchema } }, required: true } },
      responses: {
        200: {
          description: "E-mailed",
          ...jsonContent(resumeLinkResponseSchema, {
            object: "resume_link",
            sent_to: "mei@example.com",
            expires_at: "2026-11-03T09:30:00.000Z",
          }),
        },
        ...commonErrors,
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const locale = body.locale ?? negotiateLocale(c.req.header("accept-language"));
      return c.json(await emailResumeLink(c.get("db"), principal(c), { email: body.email, locale }), 200);
    },
  );
}
