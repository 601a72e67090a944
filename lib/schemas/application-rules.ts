import type * as Mini from "zod/mini";

import { accountNumberPattern } from "./aba";
import { productCategories, productSubcategories } from "./product-categories";

// One source for the merchant's onboarding information: the API's create and PATCH bodies, the
// onboarding session, the wizard's forms (per step) and the OpenAPI document are all built from
// these rules. They are written once, against zod's functional API, which zod and zod/mini share:
// the server builds them with zod (lib/schemas/application.ts: OpenAPI, `.meta`, the API's
// schemas around them), the browser with zod/mini (lib/onboarding/step-schemas.ts), which is a
// fraction of zod's weight in the wizard's script. This file has no runtime import of either.

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
export { imeiStatuses, type OnboardingStatus, onboardingStatuses, type OwnerKey, ownerKeys } from "./vocabulary";

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

/** A calendar date that exists, written YYYY-MM-DD (2026-02-30 does not). */
export function isRealDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The functions of zod's API the rules use, as zod/mini types them; zod (the server's) provides
 * the same. Passed as a narrow object, not the whole namespace, so that a bundler keeps only these.
 */
export type ZodFunctions = Pick<
  typeof Mini,
  | "boolean"
  | "email"
  | "enum"
  | "maxLength"
  | "minLength"
  | "optional"
  | "pipe"
  | "refine"
  | "regex"
  | "strictObject"
  | "string"
  | "trim"
  | "union"
>;

/** Today's date in UTC, YYYY-MM-DD (the server and the browser judge dates on the same calendar). */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
/** Born on `dateOfBirth`, at least 18 years old on `today` (both YYYY-MM-DD): the 18th birthday has come. */
export function isAdultOn(dateOfBirth: string, today: string) {
  const adultIfBornBy = `${String(Number(today.slice(0, 4)) - 18).padStart(4, "0")}${today.slice(4)}`;
  return dateOfBirth <= adultIfBornBy;
}

/** The messages of the rules the wizard shows in the reader's words (`underwriting.<code>` there); the API says these. */
export const ruleMessages = {
  owner_under_18: "Every owner must be at least 18 years old.",
  date_in_future: "The business cannot be established in the future.",
  amount_format: 'must be an amount in dollars, e.g. "2500" or "35.50"',
  state_invalid: "must be a two-letter state code, e.g. CA",
  zip_invalid: "must be a 5 or 9 digit ZIP code",
  percent_format: "must be a number from 0 to 100 as a string, without a percent sign",
  email_format: "must be an e-mail address",
  phone_format: "must be a phone number in E.164 (+14155550123) or a 10-digit US number",
  ssn_format: "ssn must be 9 digits",
  tin_format: "tin must be 9 digits",
  routing_format: "must be 9 digits",
  account_format: "must be 4 to 17 digits",
  date_format: "must be a date written YYYY-MM-DD",
  date_real: "must be a real calendar date written YYYY-MM-DD",
} as const;
export type RuleMessageCode = keyof typeof ruleMessages;

/**
 * The rules, built with the given zod: `applicationRules(z)` on the server, `applicationRules(zm)` in
 * the browser. A rule that underwriting also applies (the business not established in the future, every
 * owner at least 18) says its message through `say(code, english)`: the server answers the English
 * sentence, the wizard passes the translation key (`underwriting.<code>`) and shows it in the reader's
 * language, at the field, before anything is saved.
 */
export function applicationRules(
  z: ZodFunctions,
  say: (code: RuleMessageCode, english: string) => string = (code) => ruleMessages[code],
) {
  const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, { error: `must be one of: ${values.join(", ")}` });
  const text = (max: number) =>
    z
      .string()
      .check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(max, `must be at most ${max} characters`));

  /** An e-mail address. */
  const email = z.pipe(z.string().check(z.maxLength(254)), z.email(say("email_format", ruleMessages.email_format)));

  /** A percentage 0-100 as a string without a percent sign, e.g. "2.9". */
  const percentMessage = say("percent_format", ruleMessages.percent_format);
  const percentString = z.string().check(
    z.regex(/^\d{1,3}(\.\d{1,4})?$/, percentMessage),
    z.refine((v: string) => Number(v) <= 100, percentMessage),
  );

  /**
   * The shape of a phone number: E.164 (+14155550123) or a 10-digit US number, formatted or not.
   * Whether the number exists (area code, length per country) is checked on the server with
   * libphonenumber when it is saved (lib/domain/merchants/application.ts), to keep that library's
   * metadata out of the browser.
   */
  const phoneNumber = z
    .string()
    .check(
      z.maxLength(32),
      z.regex(
        /^(\+[1-9][0-9 ().-]{6,20}[0-9]|(\+?1[ .-]?)?\(?[2-9][0-9]{2}\)?[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4})$/,
        say("phone_format", ruleMessages.phone_format),
      ),
    );

  /** A calendar date written YYYY-MM-DD. */
  const isoDate = z
    .string()
    .check(
      z.regex(/^\d{4}-\d{2}-\d{2}$/, say("date_format", ruleMessages.date_format)),
      z.refine(isRealDate, say("date_real", ruleMessages.date_real)),
    );

  /** A date of birth: a real date, and the owner at least 18 years old today. */
  const dateOfBirth = isoDate.check(
    z.refine(
      (v: string) => !isRealDate(v) || isAdultOn(v, todayUtc()),
      say("owner_under_18", ruleMessages.owner_under_18),
    ),
  );
  /** The day the business was established: not in the future. */
  const establishedDate = isoDate.check(
    z.refine((v: string) => v <= todayUtc(), say("date_in_future", ruleMessages.date_in_future)),
  );

  /** A masked value as the API shows it ("*****6789"): sent back unchanged, it keeps the stored value. */
  const maskedValue = z.string().check(z.regex(/^\*+[0-9]{4}$/));
  const nineDigits = (code: "ssn_format" | "tin_format") =>
    z.string().check(z.regex(/^(\d{9}|\d{3}-\d{2}-\d{4}|\d{2}-\d{7})$/, say(code, ruleMessages[code])));
  // A union's own error is its message (else zod says "Invalid input"): the format's.
  const ssn = z.union([nineDigits("ssn_format"), maskedValue], { error: say("ssn_format", ruleMessages.ssn_format) });
  const tin = z.union([nineDigits("tin_format"), maskedValue], { error: say("tin_format", ruleMessages.tin_format) });
  const routingNumber = z.string().check(z.regex(/^\d{9}$/, say("routing_format", ruleMessages.routing_format)));
  const accountNumber = z.union(
    [z.string().check(z.regex(accountNumberPattern, say("account_format", ruleMessages.account_format))), maskedValue],
    { error: say("account_format", ruleMessages.account_format) },
  );

  /** Decimal amount in dollars as a string, e.g. "25000" or "35.50". */
  const moneyString = z
    .string()
    .check(z.regex(/^\d{1,10}(\.\d{1,2})?$/, say("amount_format", ruleMessages.amount_format)));

  const addressSchema = z.strictObject({
    address: text(120),
    city: text(60),
    state: z.string().check(z.regex(/^[A-Z]{2}$/, say("state_invalid", ruleMessages.state_invalid))),
    zip: z.string().check(z.regex(/^\d{5}(-?\d{4})?$/, say("zip_invalid", ruleMessages.zip_invalid))),
  });

  const ownerSchema = z.strictObject({
    first_name: text(60),
    last_name: text(60),
    middle_name: z.optional(text(60)),
    contact_phone: z.optional(phoneNumber),
    job_title: enumOf(jobTitles),
    ownership_percentage: percentString,
    email,
    date_of_birth: dateOfBirth,
    home_address: addressSchema,
    ssn,
  });

  const bankAccountSchema = z.strictObject({
    bank_name: text(100),
    routing_number: routingNumber,
    account_holder_name: text(100),
    account_number: accountNumber,
    account_number_confirm: accountNumber,
    // Read-only (docs/reference.md section 20): the response's; a form or client that sends the
    // merchant back as it read it is not refused, and the value is never stored.
    instant_eligible: z.optional(z.boolean()),
  });

  const mainProductSchema = z.strictObject({
    description: text(500),
    website: z
      .string()
      .check(
        z.trim(),
        z.maxLength(253),
        z.regex(/^(https?:\/\/)?[^\s/.]+(\.[^\s/.]+)+(\/\S*)?$/, "must be a website address, e.g. https://example.com"),
      ),
    category: enumOf(productCategories),
    subcategory: z.enum(productSubcategories, { error: "must be one of the listed subcategories" }),
  });

  const salesPercentageSchema = z.strictObject({
    card_swipe_percentage: percentString,
    online_percentage: percentString,
    keyed_percentage: percentString,
    moto_percentage: z.optional(percentString),
  });

  const currentSalesSchema = z.strictObject({
    average_monthly_in_credit_card: moneyString,
    average_ticket_value: moneyString,
    highest_amount_to_date: moneyString,
    average_amex_monthly_sales: moneyString,
    average_amex_ticket_value: moneyString,
    sales_percentage: salesPercentageSchema,
  });

  const contactSchema = z.strictObject({ name: text(120), email });

  /** The onboarding information the merchant supplies (the wizard's fields). */
  const coreApplicationShape = {
    legal_business_name: text(120),
    legal_phone: phoneNumber,
    business_phone: z.optional(phoneNumber),
    business_type: enumOf(businessTypes),
    bank_account: bankAccountSchema,
    tin,
    tin_type: enumOf(tinTypes),
    doing_business_as: z.optional(text(120)),
    business_established_date: establishedDate,
    legal_business_address: addressSchema,
    dba_address: z.optional(addressSchema),
    owner_one: ownerSchema,
    owner_two: z.optional(ownerSchema),
    owner_three: z.optional(ownerSchema),
    owner_four: z.optional(ownerSchema),
    main_product: mainProductSchema,
    main_contact_person: contactSchema,
    current_sales: currentSalesSchema,
  };

  return {
    email,
    percentString,
    phoneNumber,
    isoDate,
    maskedValue,
    ssn,
    tin,
    routingNumber,
    accountNumber,
    moneyString,
    addressSchema,
    ownerSchema,
    bankAccountSchema,
    mainProductSchema,
    salesPercentageSchema,
    currentSalesSchema,
    contactSchema,
    coreApplicationShape,
  };
}
