import { z } from "zod";
import { isValidPhoneNumber } from "libphonenumber-js/min";
import { email, percentString } from "./atoms";
import { feesSchema, merchantCapabilitiesSchema } from "./capabilities";
import { productCategories, productSubcategories } from "./product-categories";

// One source for the merchant's onboarding information: the API's create and PATCH bodies, the
// onboarding session, the wizard's forms (per step) and the OpenAPI document are all built here.

export const businessTypes = ["Sole Proprietor", "Limited Liability (LLC)", "Partnership", "Association/State & Trust", "Tax Exempt Org", "Corporation"] as const;
export const tinTypes = ["EIN", "SSN", "ITIN"] as const;
export const jobTitles = ["President", "Vice President", "Treasurer", "Owner", "Partner", "CEO", "Secretary", "Director", "Controller", "Accountant", "Chairman", "Contact Only"] as const;
export const onboardingStatuses = ["NOT_STARTED", "IN_PROGRESS", "COMPLETED", "APPROVED", "FAILED"] as const;
export const imeiStatuses = ["ACTIVE", "BLOCKED", "UNKNOWN"] as const;
export const ownerKeys = ["owner_one", "owner_two", "owner_three", "owner_four"] as const;
export type OwnerKey = (typeof ownerKeys)[number];

const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of: ${values.join(", ")}` });

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

export const phoneNumber = z
  .string()
  .max(32)
  .refine((v) => isValidPhoneNumber(v, "US"), "must be a phone number in E.164 (+14155550123) or a 10-digit US number");

/** A calendar date written YYYY-MM-DD. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, "must be a real calendar date written YYYY-MM-DD");

/** A masked value as the API shows it ("*****6789"): sent back unchanged, it keeps the stored value. */
export const maskedValue = z.string().regex(/^\*+[0-9]{4}$/);
const nineDigits = (what: string) => z.string().regex(/^(\d{9}|\d{3}-\d{2}-\d{4}|\d{2}-\d{7})$/, `${what} must be 9 digits`);
export const ssn = nineDigits("ssn").or(maskedValue);
export const tin = nineDigits("tin").or(maskedValue);
export const routingNumber = z.string().regex(/^\d{9}$/, "must be 9 digits");
export const accountNumber = z.string().regex(/^\d{4,17}$/, "must be 4 to 17 digits").or(maskedValue);

/** Decimal amount in dollars as a string, e.g. "25000" or "35.50". */
export const moneyString = z.string().regex(/^\d{1,10}(\.\d{1,2})?$/, "must be an amount in dollars, e.g. \"2500\" or \"35.50\"");

export const addressSchema = z
  .strictObject({
    address: text(120),
    city: text(60),
    state: z.string().regex(/^[A-Z]{2}$/, "must be a two-letter state code, e.g. CA"),
    zip: z.string().regex(/^\d{5}(-?\d{4})?$/, "must be a 5 or 9 digit ZIP code"),
  })
  .meta({ id: "Address" });

export const ownerSchema = z
  .strictObject({
    first_name: text(60),
    last_name: text(60),
    middle_name: text(60).optional(),
    contact_phone: phoneNumber.optional(),
    job_title: enumOf(jobTitles),
    ownership_percentage: percentString,
    email,
    date_of_birth: isoDate,
    home_address: addressSchema,
    ssn,
  })
  .meta({ id: "Owner" });

export const bankAccountSchema = z
  .strictObject({
    bank_name: text(100),
    routing_number: routingNumber,
    account_holder_name: text(100),
    account_number: accountNumber,
    account_number_confirm: accountNumber,
  })
  .meta({ id: "BankAccount" });

export const mainProductSchema = z
  .strictObject({
    description: text(500),
    website: z.string().trim().max(253).regex(/^(https?:\/\/)?[^\s/.]+(\.[^\s/.]+)+(\/\S*)?$/, "must be a website address, e.g. https://example.com"),
    category: enumOf(productCategories),
    subcategory: z.enum(productSubcategories, { error: "must be one of the listed subcategories" }),
  })
  .meta({ id: "MainProduct" });

export const salesPercentageSchema = z
  .strictObject({
    card_swipe_percentage: percentString,
    online_percentage: percentString,
    keyed_percentage: percentString,
    moto_percentage: percentString.optional(),
  })
  .meta({ id: "SalesPercentage" });

export const currentSalesSchema = z
  .strictObject({
    average_monthly_in_credit_card: moneyString,
    average_ticket_value: moneyString,
    highest_amount_to_date: moneyString,
    average_amex_monthly_sales: moneyString,
    average_amex_ticket_value: moneyString,
    sales_percentage: salesPercentageSchema,
  })
  .meta({ id: "CurrentSales" });

export const contactSchema = z.strictObject({ name: text(120), email }).meta({ id: "ContactPerson" });

/** Every field of the onboarding information, complete (what submitting needs). */
export const applicationShape = {
  legal_business_name: text(120),
  legal_phone: phoneNumber,
  business_phone: phoneNumber.optional(),
  business_type: enumOf(businessTypes),
  bank_account: bankAccountSchema,
  tin,
  tin_type: enumOf(tinTypes),
  doing_business_as: text(120).optional(),
  business_established_date: isoDate,
  legal_business_address: addressSchema,
  dba_address: addressSchema.optional(),
  owner_one: ownerSchema,
  owner_two: ownerSchema.optional(),
  owner_three: ownerSchema.optional(),
  owner_four: ownerSchema.optional(),
  main_product: mainProductSchema,
  main_contact_person: contactSchema,
  current_sales: currentSalesSchema,
  bank_account_results: z.string().max(500).optional(),
  capabilities: merchantCapabilitiesSchema.optional(),
  fees: feesSchema.optional(),
};
export const completeApplicationSchema = z.strictObject(applicationShape);

const deepPartial = <T extends z.ZodType>(schema: T): z.ZodType => {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, deepPartial(v as z.ZodType).optional()]));
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
    imei: z.string().regex(/^\d{15}$/, "must be 15 digits").refine(luhnValid, "is not a valid IMEI (check digit)"),
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
    phone: phoneNumber.optional(),
    merchant: partialApplicationSchema.optional(),
    deactivated: z.boolean().optional(),
    automatic_payouts: z.boolean().optional(),
    agent: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  })
  .meta({ id: "UpdateMerchantRequest" });

/** Luhn check digit (IMEI, card numbers). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const sensitivePaths = [
  "tin",
  "bank_account.account_number",
  "bank_account.account_number_confirm",
  ...ownerKeys.map((o) => `${o}.ssn`),
] as const;
