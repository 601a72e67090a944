import { z } from "zod";

// Disputes (docs/reference.md section 16): a customer asked the card's bank for the money back.

export const disputeStatuses = ["needs_response", "under_review", "won", "lost"] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const disputeReasons = ["fraudulent", "product_not_received", "duplicate", "unrecognized", "general"] as const;
export type DisputeReason = (typeof disputeReasons)[number];

/** The evidence's text fields: at most 20,000 characters each (the networks' own limit is about that). */
export const evidenceTextFields = [
  "customer_name",
  "product_description",
  "shipping_tracking_number",
  "uncategorized_text",
] as const;
/** The evidence's files: ids of files the merchant uploaded with purpose `dispute_evidence`. */
export const evidenceFileFields = ["receipt", "customer_communication", "uncategorized_file"] as const;
export type EvidenceField = (typeof evidenceTextFields)[number] | (typeof evidenceFileFields)[number];

const textLimits: Record<(typeof evidenceTextFields)[number], number> = {
  customer_name: 200,
  product_description: 20_000,
  shipping_tracking_number: 200,
  uncategorized_text: 20_000,
};

export const evidenceSchema = z
  .object({
    customer_name: z.string().nullable(),
    product_description: z.string().nullable(),
    shipping_tracking_number: z.string().nullable(),
    uncategorized_text: z.string().nullable(),
    receipt: z.string().nullable().meta({ description: "A file id (purpose dispute_evidence)" }),
    customer_communication: z.string().nullable().meta({ description: "A file id (purpose dispute_evidence)" }),
    uncategorized_file: z.string().nullable().meta({ description: "A file id (purpose dispute_evidence)" }),
  })
  .meta({ id: "DisputeEvidence" });
export type Evidence = z.infer<typeof evidenceSchema>;

/** The evidence of a new dispute: every field empty. */
export const emptyEvidence = (): Evidence =>
  Object.fromEntries([...evidenceTextFields, ...evidenceFileFields].map((f) => [f, null])) as Evidence;

/**
 * `POST /v1/disputes/{id}`: any part of the evidence, merged into what was saved (a field given as
 * `null` or "" is cleared). `submit: true` also submits it (the same as `/submit` after saving).
 */
export const saveEvidenceSchema = z
  .strictObject({
    evidence: z
      .strictObject({
        ...(Object.fromEntries(
          evidenceTextFields.map((f) => [f, z.string().max(textLimits[f]).nullable().optional()]),
        ) as Record<(typeof evidenceTextFields)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>),
        ...(Object.fromEntries(
          evidenceFileFields.map((f) => [
            f,
            z
              .string()
              .max(64)
              .regex(/^file_[A-Za-z0-9]+$/, "must be a file id (file_...)")
              .nullable()
              .optional(),
          ]),
        ) as Record<(typeof evidenceFileFields)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>),
      })
      .optional(),
    submit: z.boolean().optional(),
  })
  .meta({ id: "SaveDisputeEvidenceRequest" });
export type SaveEvidence = z.infer<typeof saveEvidenceSchema>;

export const disputeSchema = z
  .object({
    object: z.literal("dispute"),
    id: z.string(),
    charge_id: z.string(),
    merchant_id: z.string(),
    amount: z.number().int().meta({
      description: "Cents: what the customer disputes (the charge's captured amount less what was refunded before)",
    }),
    fee: z
      .number()
      .int()
      .meta({ description: "Cents: the dispute fee (the ISV's settings.dispute_fee when it opened)" }),
    costs: z.number().int().nullable().optional().meta({
      description:
        "The ISV's eyes only (its key, JWT and webhooks): what the dispute cost the platform (the cost profile's dispute_cost), in cents",
    }),
    margin: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: "The ISV's eyes only: fee − costs, in cents (may be negative)" }),
    currency: z.literal("usd"),
    reason: z.enum(disputeReasons),
    status: z.enum(disputeStatuses).meta({
      description:
        "needs_response → under_review → won | lost; lost also when accepted or not answered by evidence_due_by",
    }),
    evidence: evidenceSchema,
    evidence_due_by: z.number().int().meta({ description: "Milliseconds: evidence is taken until then (7 days)" }),
    submitted_at: z.number().int().nullable(),
    closed_at: z.number().int().nullable().meta({ description: "When it was won or lost" }),
    settlement_id: z.string().nullable().meta({ description: "The settlement that took the amount and the fee" }),
    won_settlement_id: z
      .string()
      .nullable()
      .meta({ description: "The settlement that returned the amount of a won dispute" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Dispute" });

export const disputeListQuerySchema = z.object({
  merchant_id: z.string().max(64).optional(),
  charge_id: z.string().max(64).optional(),
  status: z.enum(disputeStatuses).optional(),
});
