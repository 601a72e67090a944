import { z } from "zod";

import { phoneNumber } from "./application";
import { email } from "./atoms";
import { cents } from "./money-fields";
import { platformFeeInputSchema } from "./platform-fees";

// Customers, their saved payment methods and the charges made with them (docs/reference.md section 21).

const merchantId = z.string().min(1).max(64).meta({ example: "mer_4kZ2qV9sT1pLmN8xRw3YbC" });

/** Up to 20 keys of up to 40 characters, each a string of up to 500: the ISV's own references. */
export const metadataSchema = z
  .record(
    z.string().min(1, "keys must not be empty").max(40, "keys must be at most 40 characters"),
    z.string().max(500, "values must be at most 500 characters"),
  )
  .refine((m) => Object.keys(m).length <= 20, "must have at most 20 keys")
  .meta({ description: "Up to 20 string keys (40 characters) and values (500 characters), yours to keep." });

const customerFields = {
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  email: email,
  phone: phoneNumber,
  metadata: metadataSchema,
};

export const createCustomerSchema = z
  .strictObject({
    merchant_id: merchantId
      .optional()
      .meta({ description: "Required with the ISV's key; a merchant's key makes its own." }),
    name: customerFields.name.optional(),
    email: z.optional(customerFields.email),
    phone: z.optional(customerFields.phone),
    metadata: customerFields.metadata.optional(),
    test_clock: z.string().min(1).max(64).optional().meta({
      description:
        "Sandbox: a test clock (`clock_...`); the customer and its subscriptions live at the clock's time (the guide: /docs/guide#section-21)",
    }),
  })
  .meta({ id: "CreateCustomerRequest" });
export type CreateCustomerInput = z.infer<typeof createCustomerSchema>;

export const updateCustomerSchema = z
  .strictObject({
    name: customerFields.name.nullable().optional(),
    email: z.optional(z.nullable(customerFields.email)),
    phone: z.optional(z.nullable(customerFields.phone)),
    metadata: customerFields.metadata
      .optional()
      .meta({ description: "Replaces the keys given; a key sent with an empty string is removed." }),
  })
  .meta({ id: "UpdateCustomerRequest" });
export type UpdateCustomerInput = z.infer<typeof updateCustomerSchema>;

export const customerSchema = z
  .object({
    object: z.literal("customer"),
    id: z.string(),
    merchant_id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable().meta({ description: "E.164" }),
    metadata: z.record(z.string(), z.string()),
    test_clock: z.string().nullable().meta({ description: "Sandbox: the test clock it lives on; null: none" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Customer" });

export const deletedCustomerSchema = z
  .object({ object: z.literal("customer"), id: z.string(), deleted: z.literal(true) })
  .meta({ id: "DeletedCustomer" });

export const customerListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  email: z.string().max(320).optional().meta({ description: "Exact address, any case" }),
});

export const consentSchema = z.strictObject({
  accepted: z.literal(true, "must be true: the customer agreed to keep the card for later payments"),
  text: z.string().trim().min(1).max(2000).optional().meta({
    description:
      'The words your page showed the customer (default: ours, in `locale`: "Save this card for future payments to <business>").',
  }),
  locale: z.enum(["en", "es"]).optional().meta({ description: "The language the customer read (default en)." }),
});

export const createPaymentMethodSchema = z
  .strictObject({
    token: z.string().min(1).max(64).meta({
      description: "A single-use token (`tok_...`) of the merchant's tokenizer frame: a card or a bank account",
    }),
    customer: z.string().min(1).max(64).meta({ example: "cus_5tR8mQ2zX7kP1vL9wN3yBd" }),
    consent: consentSchema,
  })
  .meta({ id: "CreatePaymentMethodRequest" });
export type CreatePaymentMethodInput = z.infer<typeof createPaymentMethodSchema>;

export const paymentMethodSchema = z
  .object({
    object: z.literal("payment_method"),
    id: z.string(),
    type: z.enum(["card", "us_bank_account"]),
    customer: z.string().nullable().meta({ description: "null once detached" }),
    merchant_id: z.string(),
    card: z
      .object({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.number().int(),
        exp_year: z.number().int(),
        funding: z.string(),
        fingerprint: z.string().meta({ description: "The same card gives the same fingerprint across your merchants" }),
        expired: z.boolean().meta({ description: "Past the last day of its expiry month: charging it is refused" }),
      })
      .nullable(),
    us_bank_account: z
      .object({
        bank_name: z.string().nullable(),
        last4: z.string(),
        account_type: z.enum(["checking", "savings"]).nullable(),
        routing_number: z.string().nullable(),
        fingerprint: z.string(),
      })
      .nullable(),
    consent: z.object({
      text: z.string(),
      locale: z.enum(["en", "es"]),
      accepted_at: z.string().meta({ description: "ISO 8601" }),
      ip_address: z.string().nullable(),
      source: z.enum(["pay_page", "api"]),
    }),
    status: z.enum(["active", "expired", "detached"]),
    created_at: z.number().int(),
  })
  .meta({ id: "PaymentMethod" });

export const paymentMethodListQuery = z.object({
  customer: z.string().min(1).max(64).meta({ description: "The customer whose methods to list (required)" }),
});

export const savedChargeSchema = z
  .strictObject({
    merchant_id: merchantId.optional().meta({ description: "Required with the ISV's key." }),
    customer: z.string().min(1).max(64),
    payment_method: z.string().min(1).max(64).meta({ description: "One of the customer's saved methods (`pm_...`)" }),
    amount: cents("amount").refine((v) => v > 0, "must be more than 0"),
    tip: cents("tip").optional(),
    tax: cents("tax").optional(),
    description: z.string().trim().max(500, "must be at most 500 characters").optional(),
    platform_fee: platformFeeInputSchema.optional(),
  })
  .meta({ id: "CreateSavedMethodCharge" });
export type SavedChargeInput = z.infer<typeof savedChargeSchema>;
