import { z } from "zod";

import { coreApplicationShape, luhnValid, ownerKeys, phoneNumber } from "./application";
import { feesSchema, merchantCapabilitiesSchema } from "./capabilities";
import { payoutScheduleChangeSchema } from "./payout-schedule";

// The API's merchant shapes: the onboarding information (lib/schemas/application.ts) plus what
// the ISV sets (pricing, bank account results), for create, PATCH, the session and OpenAPI.
export * from "./application";

/** Every field of the onboarding information, complete (what submitting needs). */
export const applicationShape = {
  ...coreApplicationShape,
  bank_account_results: z.string().max(500).optional(),
  capabilities: merchantCapabilitiesSchema.optional(),
  fees: feesSchema.optional(),
};
export const completeApplicationSchema = z.strictObject(applicationShape);

const deepPartial = <T extends z.ZodType>(schema: T): z.ZodType => {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape).map(([k, v]) => [k, deepPartial(v as z.ZodType).optional()]),
    );
    return z.strictObject(shape).meta(schema.meta() ?? {});
  }
  if (schema instanceof z.ZodOptional) return deepPartial(schema.unwrap() as z.ZodType);
  return schema;
};

/**
 * Prefill and partial saves: any subset, nested as in the reference; each field given is validated.
 * `null` on an optional field (e.g. `owner_three`) removes it.
 */
export const partialApplicationSchema = z
  .strictObject(
    Object.fromEntries(
      Object.entries(applicationShape).map(([k, v]) => {
        const inner = deepPartial(v as z.ZodType);
        const optionalInReference = v instanceof z.ZodOptional;
        return [k, (optionalInReference ? inner.nullable() : inner).optional()];
      }),
    ),
  )
  .meta({ id: "MerchantOnboardingInformation" }) as unknown as z.ZodType<PartialApplication>;

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;
export type Application = z.infer<typeof completeApplicationSchema>;
export type PartialApplication = DeepPartial<Application>;

export const deviceInputSchema = z
  .strictObject({
    imei: z
      .string()
      .regex(/^\d{15}$/, "must be 15 digits")
      .refine(luhnValid, "is not a valid IMEI (check digit)"),
  })
  .meta({ id: "DeviceInput" });

export const createMerchantSchema = z
  .strictObject({
    phone: phoneNumber,
    device: deviceInputSchema.optional(),
    merchant: partialApplicationSchema.optional(),
    agent: z.number().int().min(0).max(2_147_483_647).optional(),
  })
  .meta({ id: "CreateMerchantRequest" });

export const updateMerchantSchema = z
  .strictObject({
    phone: z.optional(phoneNumber),
    merchant: partialApplicationSchema.optional(),
    deactivated: z.boolean().optional(),
    automatic_payouts: z.boolean().optional(),
    payout_schedule: payoutScheduleChangeSchema.optional(),
    agent: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  })
  .meta({ id: "UpdateMerchantRequest" });

export const sensitivePaths = [
  "tin",
  "bank_account.account_number",
  "bank_account.account_number_confirm",
  ...ownerKeys.map((o) => `${o}.ssn`),
] as const;
