import { z } from "zod";

import type { LooseJson } from "../loose-json";
import { deviceCatalogEntrySchema, merchantDefaultsSchema } from "./account";
import { defaultCapabilitiesSchema, feesSchema, merchantCapabilitiesSchema } from "./capabilities";
import exampleApplication from "./examples/merchant-application.json" with { type: "json" };
import { addressSchema, imeiStatuses, onboardingStatuses } from "./merchant";
import { defaultPayoutSchedule, payoutScheduleSchema } from "./payout-schedule";
import { checkStatuses, checkSubjects, checkTypes } from "./verification";
import { stepIds } from "./vocabulary";

// Response shapes for the OpenAPI document and for tests that check what goes out.
const nullable = <T extends z.ZodType>(s: T) => s.nullable();
const ownerOut = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  middle_name: z.string().optional(),
  contact_phone: z.string().optional(),
  job_title: z.string().nullable(),
  ownership_percentage: z.string().nullable(),
  email: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  home_address: nullable(z.strictObject(addressSchema.shape).partial()),
  ssn: z.string().nullable().meta({ description: "Masked: last four digits only" }),
});

export const merchantInfoResponseSchema = z
  .object({
    legal_business_name: z.string().nullable(),
    legal_phone: z.string().nullable(),
    business_phone: z.string().optional(),
    business_type: z.string().nullable(),
    bank_account: z
      .object({
        bank_name: z.string().nullable(),
        routing_number: z.string().nullable(),
        account_holder_name: z.string().nullable(),
        account_number: z.string().nullable().meta({ description: "Masked" }),
        account_number_confirm: z.string().nullable().meta({ description: "Masked" }),
        instant_eligible: z.boolean().optional().meta({
          description:
            "Whether instant payouts reach this account's bank (RTP or FedNow), decided by its routing number (the guide: /docs/guide#section-20)",
        }),
      })
      .nullable(),
    tin: z.string().nullable().meta({ description: "Masked: last four digits only" }),
    tin_type: z.string().nullable(),
    doing_business_as: z.string().optional(),
    business_established_date: z.string().nullable(),
    legal_business_address: z.strictObject(addressSchema.shape).partial().nullable(),
    dba_address: z.strictObject(addressSchema.shape).partial().optional(),
    owner_one: ownerOut.nullable(),
    owner_two: ownerOut.optional(),
    owner_three: ownerOut.optional(),
    owner_four: ownerOut.optional(),
    main_product: z
      .object({
        description: z.string().nullable(),
        website: z.string().nullable(),
        category: z.string().nullable(),
        subcategory: z.string().nullable(),
      })
      .nullable(),
    main_contact_person: z.object({ name: z.string().nullable(), email: z.string().nullable() }).nullable(),
    current_sales: z.record(z.string(), z.unknown()).nullable(),
    bank_account_results: z.string().optional(),
    capabilities: merchantCapabilitiesSchema.optional(),
    fees: feesSchema.optional(),
  })
  .meta({ id: "MerchantOnboardingInformationResponse" });

export const requirementsSchema = z
  .object({
    currently_due: z.array(z.string()),
    errors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
    disabled_reason: z.string().nullable(),
    pending_verification: z
      .array(z.string())
      .meta({ description: "The verification checks still running, as paths such as owner_one.identity" }),
  })
  .meta({ id: "Requirements" });

export const verificationCheckSchema = z
  .object({
    type: z.enum(checkTypes),
    subject: z.enum(checkSubjects).meta({ description: "owner_one..owner_four for identity; merchant for the others" }),
    status: z.enum(checkStatuses),
    code: z.string().nullable().meta({ description: "Why it needs a document or failed (stable)" }),
    message: z.string().nullable().meta({ description: "The same in plain words" }),
    document_file_id: z.string().nullable().meta({ description: "The last document sent for this check" }),
    updated_at: z.string(),
  })
  .meta({ id: "VerificationCheck" });

export const deviceResponseSchema = z
  .object({
    id: z.string(),
    imei: z.string().nullable(),
    imei_status: z.enum(imeiStatuses),
    catalog_id: z.string().nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "Device" });

export const merchantResponseSchema = z
  .object({
    object: z.literal("merchant"),
    id: z.string(),
    phone: z.string(),
    automatic_payouts: z.boolean(),
    payout_schedule: payoutScheduleSchema,
    deactivated: z.boolean(),
    created_at: z.string(),
    lead_id: z.number(),
    lead_onboarding_status: z.enum(onboardingStatuses),
    merchant: merchantInfoResponseSchema,
    payment: z.object({ tokenizer_publishable_key: z.string(), terminal_id: z.string().nullable() }),
    defaults: merchantDefaultsSchema,
    default_capabilities: defaultCapabilitiesSchema,
    payment_keys: z.object({
      pub_api_key: z.string().nullable(),
      api_key: z.string().nullable().meta({ description: "Masked" }),
      gateway_merchant_id: z.string().nullable(),
      processors: z.array(z.object({ id: z.string(), processor_type: z.enum(["ACH", "CREDIT_CARD"]) })),
    }),
    device: deviceResponseSchema.optional(),
    device_selection: z.enum(["selected", "skipped"]).nullable(),
    agent: z.number().nullable(),
    verification: z.array(verificationCheckSchema),
    requirements: requirementsSchema,
    updated_at: z.string(),
  })
  .meta({ id: "Merchant" });

export const onboardingLinkResponseSchema = z
  .object({
    object: z.literal("onboarding_link"),
    id: z.string(),
    merchant_id: z.string(),
    type: z.literal("account_onboarding"),
    url: z.string(),
    return_url: z.string().nullable(),
    redirect_url: z.string().nullable(),
    refresh_url: z.string().nullable(),
    state: z.string().nullable(),
    allow_skip_device_selection: z.boolean().nullable(),
    expires_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: "OnboardingLink" });

export const onboardingSessionResponseSchema = z
  .object({
    object: z.literal("onboarding_session"),
    merchant_id: z.string(),
    lead_onboarding_status: z.enum(onboardingStatuses),
    // The phone the ISV gave at creation (E.164): the wizard offers it for the business's phone.
    phone: z.string().nullable(),
    merchant: merchantInfoResponseSchema,
    device: z.union([deviceResponseSchema, z.null()]),
    device_selection: z.enum(["selected", "skipped"]).nullable(),
    branding: merchantDefaultsSchema,
    steps: z.array(z.object({ id: z.enum(stepIds), complete: z.boolean(), requested: z.boolean() })),
    requirements: requirementsSchema,
    verification: z.array(verificationCheckSchema),
    device_options: z.array(deviceCatalogEntrySchema),
    device_selection_required: z.boolean(),
    allow_skip_device_selection: z.boolean(),
    return_url: z.string().nullable(),
    expires_at: z.string(),
    agreement: z.object({ signed: z.boolean(), name: z.string().nullable(), signed_at: z.string().nullable() }),
  })
  .meta({ id: "OnboardingSession" });

export { exampleApplication };

const masked = (v: string) => `*****${v.slice(-4)}`;
const app = structuredClone(exampleApplication) as LooseJson;
app.tin = masked(app.tin);
app.bank_account.account_number = masked(app.bank_account.account_number);
app.bank_account.account_number_confirm = masked(app.bank_account.account_number_confirm);
for (const o of ["owner_one", "owner_two"]) app[o].ssn = masked(app[o].ssn);
app.capabilities = { types: ["flat_rate", "ach"] };

/** An example merchant as GET /v1/merchants/{id} answers it (for the OpenAPI document). */
export const exampleMerchant = {
  object: "merchant",
  id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  phone: "+14155550123",
  automatic_payouts: true,
  payout_schedule: defaultPayoutSchedule,
  deactivated: false,
  created_at: "2026-11-01T09:30:00.000Z",
  lead_id: 1042,
  lead_onboarding_status: "IN_PROGRESS",
  merchant: app,
  payment: { tokenizer_publishable_key: "pk_test_9fKq2LmN8xRw3YbC4kZ2qV9sT1pLmN8x", terminal_id: null },
  defaults: {
    display_name: "Acme POS",
    logo: "https://acme.example/logo.svg",
    primary_color: "#1d4ed8",
    secondary_color: "#0f172a",
  },
  payment_keys: { pub_api_key: null, api_key: null, gateway_merchant_id: null, processors: [] },
  device: {
    id: "dev_7hQ2qV9sT1pLmN8xRw3YbC",
    imei: "490154203237518",
    imei_status: "UNKNOWN",
    catalog_id: null,
    created_at: "2026-11-01T09:30:00.000Z",
    updated_at: "2026-11-01T09:30:00.000Z",
  },
  device_selection: "selected",
  agent: null,
  verification: [],
  requirements: { currently_due: [], errors: [], disabled_reason: "onboarding_incomplete", pending_verification: [] },
  updated_at: "2026-11-01T09:41:12.000Z",
};
