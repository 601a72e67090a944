import { z } from "zod";

// Account sessions (docs/reference.md section 15, embedded components): what an ISV's page may embed
// for one merchant, opened by a short-lived client secret.

export const embedComponents = [
  "onboarding",
  "payments",
  "payouts",
  "disputes",
  "statements",
  "notification_banner",
] as const;
export type EmbedComponent = (typeof embedComponents)[number];

const componentSchema = z.strictObject({
  enabled: z.boolean(),
  features: z
    .strictObject({
      refunds: z.boolean().optional().meta({ description: "payments: the merchant may refund (default true)" }),
      dispute_management: z
        .boolean()
        .optional()
        .meta({ description: "payments, disputes: the merchant may answer disputes (default true)" }),
    })
    .optional(),
});
export type ComponentSetting = z.infer<typeof componentSchema>;

export const createAccountSessionSchema = z
  .strictObject({
    merchant_id: z.string().min(1).max(64),
    components: z
      .strictObject(
        Object.fromEntries(embedComponents.map((c) => [c, componentSchema.optional()])) as Record<
          EmbedComponent,
          z.ZodOptional<typeof componentSchema>
        >,
      )
      .refine((c) => Object.values(c).some((s) => s?.enabled), "enable at least one component"),
  })
  .meta({ id: "CreateAccountSessionRequest" });
export type CreateAccountSession = z.infer<typeof createAccountSessionSchema>;

/** The components a session opens, each with its features resolved (defaults: every feature on). */
export type SessionComponents = Partial<
  Record<EmbedComponent, { enabled: true; features: { refunds: boolean; dispute_management: boolean } }>
>;

export const accountSessionSchema = z
  .object({
    object: z.literal("account_session"),
    id: z.string(),
    merchant_id: z.string(),
    client_secret: z.string().meta({
      description:
        "Hand it to the page that mounts the components (never log it): it opens this merchant and these components once, within the hour",
    }),
    components: z.partialRecord(
      z.enum(embedComponents),
      z.object({
        enabled: z.literal(true),
        features: z.object({ refunds: z.boolean(), dispute_management: z.boolean() }),
      }),
    ),
    expires_at: z.number().int().meta({ description: "Milliseconds: one hour after it was made" }),
    created_at: z.number().int(),
  })
  .meta({ id: "AccountSession" });
