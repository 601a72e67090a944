import {
  boolean,
  email,
  enum as enumOf,
  maxLength,
  minLength,
  object,
  optional,
  pipe,
  record,
  refine,
  regex,
  strictObject,
  string,
  superRefine,
  trim,
  union,
  unknown,
} from "zod/mini";

import { applicationRules, ownerKeys } from "../schemas/application-rules";
import {
  accountConfirmationProblem,
  ownershipProblem,
  ownershipTotal,
  routingNumberProblem,
  salesMixProblem,
  ticketProblem,
} from "./cross-field";
import { businessFields } from "./steps";

// The wizard's form schemas, one per step with a form: the onboarding information's own rules
// (../schemas/application-rules.ts) built with zod/mini, which is what the browser loads (zod, with
// its chainable methods and locales, would be about 30 KB of every step's script); and the
// cross-field rules, which are underwriting's own (./cross-field.ts, messages `underwriting.<code>`).

// Named imports, passed as one narrow object: the bundler keeps only these functions of zod/mini.
const rules = applicationRules(
  {
    boolean,
    email,
    enum: enumOf,
    maxLength,
    minLength,
    optional,
    pipe,
    refine,
    regex,
    strictObject,
    string,
    trim,
    union,
  },
  // The rules underwriting shares say their message by key: shown translated at the field.
  (code) => `underwriting.${code}`,
);
const { bankAccountSchema, currentSalesSchema, mainProductSchema, ownerSchema, coreApplicationShape } = rules;

const pick = <K extends keyof typeof coreApplicationShape>(...keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, coreApplicationShape[k]])) as Pick<typeof coreApplicationShape, K>;

const schemas = {
  business: object(pick(...businessFields)),
  bank: object({ bank_account: bankAccountSchema }).check(
    refine((v) => !routingNumberProblem(v.bank_account.routing_number), {
      message: "underwriting.routing_number_invalid",
      path: ["bank_account", "routing_number"],
    }),
    refine((v) => !accountConfirmationProblem(v.bank_account), {
      message: "underwriting.account_number_mismatch",
      path: ["bank_account", "account_number_confirm"],
    }),
  ),
  product: object({ main_product: mainProductSchema }),
  sales: object({ current_sales: currentSalesSchema }).check(
    refine((v) => !salesMixProblem(v.current_sales.sales_percentage), {
      message: "underwriting.sales_mix_not_100",
      path: ["current_sales", "sales_percentage", "card_swipe_percentage"],
    }),
    refine((v) => !ticketProblem(v.current_sales), {
      message: "underwriting.average_above_highest",
      path: ["current_sales", "average_ticket_value"],
    }),
  ),
};

export const stepSchema = <T extends keyof typeof schemas>(id: T) => schemas[id];

/**
 * The owners' form: each listed owner by the owner rules; `count` is read at each validation, so
 * adding or removing an owner keeps what was typed. Over 100 % is refused here as in underwriting;
 * under 25 % only underwriting can judge (owners may be added later).
 */
export function ownersSchema(count: () => number) {
  return record(string(), unknown()).check(
    superRefine((v, ctx) => {
      const owners = ownerKeys.slice(0, count());
      for (const k of owners) {
        const result = ownerSchema.safeParse(v[k] ?? {});
        for (const issue of result.error?.issues ?? []) ctx.addIssue({ ...issue, path: [k, ...issue.path] });
      }
      const problem = ownershipProblem(ownershipTotal(v, owners), undefined, { requireQuarter: false });
      if (problem)
        ctx.addIssue({
          code: "custom",
          message: `underwriting.${problem}`,
          path: ["owner_one", "ownership_percentage"],
        });
    }),
  );
}

/** The device choice: a catalog entry, the merchant's own device, or skipping (which must be confirmed). */
export const DEVICE_SKIP = "__skip";
export const deviceSchema = object({ choice: string().check(minLength(1)), confirm: optional(boolean()) }).check(
  refine((v) => v.choice !== DEVICE_SKIP || v.confirm === true, {
    message: "fields.device.skipConfirm",
    path: ["confirm"],
  }),
);
