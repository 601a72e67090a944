import { z } from "zod";
import { email, percentString } from "./atoms";
import { productCategories, productSubcategories } from "./product-categories";

// One source for the merchant's onboarding information: the API's create and PATCH bodies, the
// onboarding session, the wizard's forms (per step) and the OpenAPI document are all built from
// these atoms. This file is also loaded in the browser: keep it free of server-only or heavy code.

export const businessTypes = [
  "Sole Proprietor",
  "Limited Liability (LLC)",
  "Partnership",
  "Association/State & Trust",
  "Tax Exempt Org",
  "Corporation",
] as const;
export const tinTypes = ["EIN", "SSN", "ITIN"] as const;
export const jobTitles = [
  "President",
  "Vice President",
  "Treasurer",
  "Owner",
  "Partner",
  "CEO",
  "Secretary",
  "Director",
  "Controller",
  "Accountant",
  "Chairman",
  "Contact Only",
] as const;
export const onboardingStatuses = ["NOT_STARTED", "IN_PROGRESS", "COMPLETED", "APPROVED", "FAILED"] as const;
export type OnboardingStatus = (typeof onboardingStatuses)[number];
export const imeiStatuses = ["ACTIVE", "BLOCKED", "UNKNOWN"] as const;
export const ownerKeys = ["owner_one", "owner_two", "owner_three", "owner_four"] as const;
export type OwnerKey = (typeof ownerKeys)[number];

const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of: ${values.join(", ")}` });

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/**
 * The shape of a phone number: E.164 (+14155550123) or a 10-digit US number, formatted or not.
 * Whether the number exists (area code, length per country) is checked on the server with
 * libphonenumber when it is saved (lib/domain/merchants/application.ts), to keep that library's
 * metadata out of the browser.
 */
export const phoneNumber = z
  .string()
  .max(32)
  .regex(
    /^(\+[1-9][0-9 ().-]{6,20}[0-9]|(\+?1[ .-]?)?\(?[2-9][0-9]{2}\)?[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4})$/,
    "must be a phone number in E.164 (+14155550123) or a 10-digit US number",
  );

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
export const accountNumber = z
  .string()
  .regex(/^\d{4,17}$/, "must be 4 to 17 digits")
  .or(maskedValue);

/** Decimal amount in dollars as a string, e.g. "25000" or "35.50". */
export const moneyString = z.string().regex(/^\d{1,10}(\.\d{1,2})?$/, 'must be an amount in dollars, e.g. "2500" or "35.50"');

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
    website: z
      .string()
      .trim()
      .max(253)
      .regex(/^(https?:\/\/)?[^\s/.]+(\.[^\s/.]+)+(\/\S*)?$/, "must be a website address, e.g. https://example.com"),
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

/** The onboarding information the merchant supplies (the wizard's fields). */
export const coreApplicationShape = {
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
};

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
