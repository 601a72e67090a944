import { z } from "zod";

import { onboardingStatuses } from "./application";
import { deviceInputSchema, partialApplicationSchema } from "./merchant";

// Requests and answers of the onboarding session API (docs/reference.md section 6) beyond the session itself.

export const sessionPatchSchema = z
  .strictObject({
    merchant: partialApplicationSchema.optional(),
    device: z
      .strictObject({ imei: deviceInputSchema.shape.imei.optional(), catalog_id: z.string().max(40).optional() })
      .refine((d) => (d.imei === undefined) !== (d.catalog_id === undefined), "send either imei or catalog_id")
      .optional(),
    device_selection: z.enum(["skipped"]).optional(),
  })
  .meta({ id: "UpdateOnboardingSessionRequest" });

export const signAgreementSchema = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: "SignAgreementRequest" });

export const agreementSignatureSchema = z
  .object({
    name: z.string(),
    signed_at: z.string(),
    ip: z.string(),
    user_agent: z.string(),
    version: z.string(),
    locale: z.enum(["en", "es"]),
    text_sha256: z.string().meta({
      description: "SHA-256 of the exact agreement text that was signed; a change to it needs a new signature",
    }),
  })
  .meta({ id: "AgreementSignature" });

export const submitResponseSchema = z
  .object({ lead_onboarding_status: z.enum(onboardingStatuses), redirect_url: z.string() })
  .meta({ id: "OnboardingSubmitResponse" });

/** POST /v1/onboarding/session/resume_link: "save and finish later". */
export const resumeLinkRequestSchema = z
  .strictObject({
    email: z.email("An e-mail address needs an @ and a domain, like ana@example.com").max(254).meta({
      description: "Where to send the link (the wizard offers the application's contact e-mail)",
    }),
    locale: z.enum(["en", "es"]).optional().meta({ description: "The e-mail's language (default: the page's)" }),
  })
  .meta({ id: "OnboardingResumeLinkRequest" });

export const resumeLinkResponseSchema = z
  .object({
    object: z.literal("resume_link"),
    sent_to: z.string(),
    expires_at: z.string().meta({ description: "When the e-mailed link stops working" }),
  })
  .meta({ id: "OnboardingResumeLink" });
