import { z } from "zod";

import { apiVersionSchema } from "./api-version";
import { email, hexColor, hostname, httpUrl } from "./atoms";
import { defaultCapabilitiesSchema } from "./capabilities";
import { costProfileSchema } from "./cost-profile";
import { defaultDevices } from "./default-devices";
import {
  defaultInstantPayoutSettings,
  instantPayoutSettingsPatchShape,
  instantPayoutSettingsShape,
} from "./instant-payouts";
import { subscriptionFailureActions } from "./payment-values";
import { payoutBankAccountInputSchema, payoutBankAccountSchema } from "./payout-bank-account";
import { platformFeeRefundPolicies, platformFeeRulesSchema } from "./platform-fees";
import { defaultRiskActions, riskActionsPatchSchema, riskActionsSchema } from "./risk";

export const supportSchema = z
  .strictObject({
    email: z.optional(email),
    phone: z
      .string()
      .min(3)
      .max(32)
      .regex(/^[+0-9 ()-]+$/, "must be a phone number")
      .optional(),
    url: httpUrl.optional(),
  })
  .meta({ id: "SupportContact" });

/** The placeholder every new ISV starts with: pages show the ISV's monogram instead of it. */
export const DEFAULT_LOGO = "/logo-default.svg";
/** Whether the ISV set a logo (the placeholder every new ISV starts with is not one). */
export const hasOwnLogo = (logo: string | null | undefined): logo is string => Boolean(logo) && logo !== DEFAULT_LOGO;

/** `defaults`: the ISV's branding and where merchants go when done. */
export const merchantDefaultsSchema = z
  .strictObject({
    display_name: z.string().trim().min(1).max(80),
    // An http(s) URL, a path on this service, or an uploaded image as a data URL (up to ~100 KB).
    logo: httpUrl.or(z.string().regex(/^\/[A-Za-z0-9/_.-]*$/, "must be a URL")).or(
      z
        .string()
        .max(140_000, "an uploaded logo must be at most 100 KB")
        .regex(
          /^data:image\/(png|jpeg|svg\+xml|webp);base64,[A-Za-z0-9+/]+=*$/,
          "must be a URL or a PNG, JPEG, SVG or WebP image",
        ),
    ),
    primary_color: hexColor,
    secondary_color: hexColor,
    redirect_url: httpUrl.nullable().optional(),
    custom_domain: hostname.nullable().optional(),
    support: supportSchema.nullable().optional(),
  })
  .meta({ id: "MerchantDefaults" });
export type MerchantDefaults = z.infer<typeof merchantDefaultsSchema>;

export const deviceCatalogEntrySchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9_-]{1,40}$/, "must be 1-40 lower-case letters, digits, - or _"),
    name: z.string().trim().min(1).max(80),
    description: z.string().max(400).optional(),
    description_es: z
      .string()
      .max(400)
      .optional()
      .meta({ description: "The description in Spanish, shown to a merchant reading the wizard in Spanish" }),
    price: z.number().int().min(0).max(10_000_000).optional().meta({ description: "Price in cents (USD)" }),
    image_url: httpUrl.optional(),
  })
  .meta({ id: "DeviceCatalogEntry" });
export type DeviceCatalogEntry = z.infer<typeof deviceCatalogEntrySchema>;

export const notificationTargets = ["isv", "merchant", "both"] as const;

/** A web origin an ISV's page is served from: scheme, host and port only, as a browser names it. */
const embedOrigin = z
  .string()
  .max(200)
  .refine((value) => {
    try {
      const url = new URL(value);
      const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
      // A DNS name or an address only: the URL parser lets `*`, `;`, `,` and `'` through in a host,
      // and the origin is written into a Content-Security-Policy.
      const host = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(url.hostname);
      return (
        url.origin === value && (host || local) && (url.protocol === "https:" || (url.protocol === "http:" && local))
      );
    } catch {
      return false;
    }
  }, "must be an origin such as https://app.example.com (scheme, host and port; no path or trailing slash; http only on localhost)");

export const accountSettingsSchema = z
  .strictObject({
    notifications: z.strictObject({ information_requested: z.enum(notificationTargets) }),
    onboarding_link_ttl_seconds: z.number().int().min(3600).max(604800),
    allow_skip_device_selection: z.boolean(),
    device_selection_required: z.boolean(),
    devices: z
      .array(deviceCatalogEntrySchema)
      .max(50)
      .refine((d) => new Set(d.map((x) => x.id)).size === d.length, "device ids must be unique"),
    embed_allowed_origins: z
      .array(embedOrigin)
      .max(20)
      .refine((o) => new Set(o).size === o.length, "origins must be unique")
      .meta({
        description:
          "The origins whose pages may embed this ISV's components (the guide: /docs/guide#section-15): https://host[:port], or http:// on localhost or 127.0.0.1 for development. Empty: no embedding",
      }),
    new_bank_account_hold_days: z.number().int().min(0).max(10).meta({
      description:
        "Business days a bank account entered after approval waits, once verified, before payouts reach it (the guide: /docs/guide#section-16); default 3",
    }),
    dispute_fee: z.number().int().min(0).max(10_000).meta({
      description:
        "Cents taken from the merchant's settlement for each dispute its customers open (the guide: /docs/guide#section-16); a won dispute returns its amount, not this fee",
    }),
    merchant_can_change_schedule: z.boolean().meta({
      description:
        "Whether the merchant may change its own payout schedule in its home (the guide: /docs/guide#section-20); default false: only the ISV, with `PATCH /v1/merchants/{id}`",
    }),
    ...instantPayoutSettingsShape,
    risk_actions: riskActionsSchema.meta({
      description:
        "What each risk rule's alert does (the guide: /docs/guide#section-20): `notify` (default), `pause_payouts` (until resolved, or until a daily run finds the rule no longer broken), `reserve` (rolling 10 % for 90 days) or `review` (payouts paused until a person resolves it)",
    }),
    platform_fee_rules: platformFeeRulesSchema,
    platform_fee_refund: z.enum(platformFeeRefundPolicies).meta({
      description:
        "What a refund does with the charge's platform fee (the guide: /docs/guide#section-19): `pro_rata` (default) gives back the refunded share to the merchant; `keep` keeps it",
    }),
    subscription_failure_action: z.enum(subscriptionFailureActions).meta({
      description:
        "What a subscription becomes when its last retry (day 7) fails (the guide: /docs/guide#section-21): `unpaid` (default: no more renewals, its invoice stays payable from the e-mailed link and paying it resumes the subscription) or `canceled` (the invoice too)",
    }),
  })
  .meta({ id: "AccountSettings" });
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** The dispute fee of an ISV that never set one: $15.00. */
export const DEFAULT_DISPUTE_FEE = 1500;
/** The cooling-off of a new bank account for an ISV that never set one: 3 business days. */
export const DEFAULT_NEW_BANK_ACCOUNT_HOLD_DAYS = 3;

/** Settings saved before a field existed take its default (read once, here: the API, the updates, the rules). */
export const settingsWithDefaults = (stored: Partial<AccountSettings>): AccountSettings =>
  ({
    dispute_fee: DEFAULT_DISPUTE_FEE,
    new_bank_account_hold_days: DEFAULT_NEW_BANK_ACCOUNT_HOLD_DAYS,
    embed_allowed_origins: [],
    platform_fee_rules: [],
    platform_fee_refund: "pro_rata",
    merchant_can_change_schedule: false,
    subscription_failure_action: "unpaid",
    ...defaultInstantPayoutSettings,
    ...stored,
    risk_actions: { ...defaultRiskActions, ...(stored.risk_actions ?? {}) },
  }) as AccountSettings;

export const initialSettings: AccountSettings = {
  dispute_fee: DEFAULT_DISPUTE_FEE,
  platform_fee_rules: [],
  platform_fee_refund: "pro_rata",
  new_bank_account_hold_days: DEFAULT_NEW_BANK_ACCOUNT_HOLD_DAYS,
  merchant_can_change_schedule: false,
  subscription_failure_action: "unpaid",
  risk_actions: defaultRiskActions,
  ...defaultInstantPayoutSettings,
  embed_allowed_origins: [],
  notifications: { information_requested: "both" },
  onboarding_link_ttl_seconds: 86400,
  allow_skip_device_selection: false,
  device_selection_required: true,
  devices: defaultDevices,
};

export function initialDefaults(displayName: string): MerchantDefaults {
  return { display_name: displayName, logo: DEFAULT_LOGO, primary_color: "#1d4ed8", secondary_color: "#0f172a" };
}

/**
 * `defaults.custom_domain` serves the ISV's pages (and links use it) only once the ISV proves it
 * controls the domain: a DNS TXT record `record.name` holding `record.value`, then
 * POST /v1/account/custom_domain/verify.
 */
export const customDomainVerificationSchema = z
  .object({
    domain: z.string(),
    status: z.enum(["pending", "verified"]),
    record: z.object({ type: z.literal("TXT"), name: z.string(), value: z.string() }),
    verified_at: z.string().nullable(),
  })
  .meta({ id: "CustomDomainVerification" });

export const accountSchema = z
  .object({
    object: z.literal("account"),
    id: z.string(),
    type: z.enum(["platform", "isv", "merchant"]),
    account_sid: z.string(),
    name: z.string(),
    defaults: merchantDefaultsSchema,
    default_capabilities: defaultCapabilitiesSchema,
    settings: accountSettingsSchema,
    custom_domain_verification: customDomainVerificationSchema.nullable(),
    cost_profile: costProfileSchema.nullable().meta({
      description:
        "An ISV's: what the platform charges it (set by the operator; the contract's defaults until then) and its share of the margin. Null for other accounts",
    }),
    api_version: z.string().meta({
      description:
        "The API version the account is pinned to (the guide: /docs/guide#section-22): answers without an Onb-Version header are written in it",
    }),
    payout_bank_account: payoutBankAccountSchema.nullable().meta({
      description:
        "An ISV's own bank account, where its residuals are paid once it is verified (the guide: /docs/guide#section-19); null: none given",
    }),
    payouts_frozen_at: z.string().nullable().meta({
      description:
        "When one of the ISV's users reported a change of the payout bank account as not theirs: no residual is paid until the platform's operators release the payouts; null: not frozen",
    }),
    created_at: z.string(),
  })
  .meta({ id: "Account" });

/** `PATCH /v1/account`: each top-level object is merged into the stored one; `null` clears an optional field. */
export const updateAccountSchema = z
  .strictObject({
    defaults: merchantDefaultsSchema.partial().optional(),
    default_capabilities: z
      .strictObject({
        types: defaultCapabilitiesSchema.shape.types.optional(),
        options: z
          .strictObject(
            Object.fromEntries(
              Object.entries(defaultCapabilitiesSchema.shape.options.shape).map(([k, v]) => [
                k,
                v.partial().optional(),
              ]),
            ) as {
              [K in keyof typeof defaultCapabilitiesSchema.shape.options.shape]: z.ZodOptional<
                ReturnType<(typeof defaultCapabilitiesSchema.shape.options.shape)[K]["partial"]>
              >;
            },
          )
          .optional(),
      })
      .optional(),
    settings: z
      .strictObject({
        notifications: accountSettingsSchema.shape.notifications.optional(),
        onboarding_link_ttl_seconds: accountSettingsSchema.shape.onboarding_link_ttl_seconds.optional(),
        allow_skip_device_selection: z.boolean().optional(),
        device_selection_required: z.boolean().optional(),
        devices: accountSettingsSchema.shape.devices.optional(),
        dispute_fee: accountSettingsSchema.shape.dispute_fee.optional(),
        new_bank_account_hold_days: accountSettingsSchema.shape.new_bank_account_hold_days.optional(),
        embed_allowed_origins: accountSettingsSchema.shape.embed_allowed_origins.optional(),
        platform_fee_rules: accountSettingsSchema.shape.platform_fee_rules.optional(),
        platform_fee_refund: accountSettingsSchema.shape.platform_fee_refund.optional(),
        merchant_can_change_schedule: z.boolean().optional(),
        subscription_failure_action: z.enum(subscriptionFailureActions).optional(),
        ...instantPayoutSettingsPatchShape,
        risk_actions: riskActionsPatchSchema
          .optional()
          .meta({ description: "The rules given are changed; the rest kept" }),
      })
      .optional(),
    payout_bank_account: payoutBankAccountInputSchema.optional().meta({
      description:
        "Only from the dashboard's sign-in token (`POST /v1/auth/token`) within 15 minutes of signing in: an API key is refused (403 `permission_denied`), an older sign-in must sign in again (403 `reauthentication_required`). Every user of the account is e-mailed with a single-use \"this wasn't me\" link that freezes the payouts, and a change of an account already given holds residuals for `settings.new_bank_account_hold_days` business days",
    }),
    api_version: apiVersionSchema
      .optional()
      .meta({ description: "Pin the account to another version (/docs/changelog)" }),
  })
  .meta({ id: "UpdateAccountRequest" });
export type UpdateAccount = z.infer<typeof updateAccountSchema>;
