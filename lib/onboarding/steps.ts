import { z } from "zod";
import { bankAccountSchema, coreApplicationShape, currentSalesSchema, mainProductSchema } from "../schemas/application";
import { accountConfirmationProblem, routingNumberProblem, salesMixProblem, ticketProblem } from "./cross-field";

// The wizard's step registry, the one source of truth for its steps: each step's URL id, the
// top-level fields of the onboarding information it owns, its message namespace and (for the
// steps whose form is fixed) its schema. The API's session answer, the pages, the wizard, the
// review step and the portal all read this list; nothing here may import server code.

const pick = <K extends keyof typeof coreApplicationShape>(...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, coreApplicationShape[k]])) as Pick<typeof coreApplicationShape, K>;

const businessFields = [
  "legal_business_name",
  "doing_business_as",
  "business_type",
  "tin_type",
  "tin",
  "business_established_date",
  "legal_phone",
  "business_phone",
  "legal_business_address",
  "dba_address",
  "main_contact_person",
] as const;

// The cross-field rules are underwriting's own (./cross-field.ts); their messages are `underwriting.<code>`.
const schemas = {
  business: z.object(pick(...businessFields)),
  bank: z
    .object({ bank_account: bankAccountSchema })
    .refine((v) => !routingNumberProblem(v.bank_account.routing_number), {
      message: "underwriting.routing_number_invalid",
      path: ["bank_account", "routing_number"],
    })
    .refine((v) => !accountConfirmationProblem(v.bank_account), {
      message: "underwriting.account_number_mismatch",
      path: ["bank_account", "account_number_confirm"],
    }),
  product: z.object({ main_product: mainProductSchema }),
  sales: z
    .object({ current_sales: currentSalesSchema })
    .refine((v) => !salesMixProblem(v.current_sales.sales_percentage), {
      message: "underwriting.sales_mix_not_100",
      path: ["current_sales", "sales_percentage", "card_swipe_percentage"],
    })
    .refine((v) => !ticketProblem(v.current_sales), { message: "underwriting.average_above_highest", path: ["current_sales", "average_ticket_value"] }),
};

export const onboardingSteps = [
  { id: "business", fields: businessFields, messages: "business", schema: schemas.business },
  // The owners' form schema depends on how many owners are listed (owners-step.tsx builds it).
  { id: "owners", fields: ["owner_one", "owner_two", "owner_three", "owner_four"], messages: "owners", schema: null },
  { id: "bank", fields: ["bank_account"], messages: "bank", schema: schemas.bank },
  { id: "product", fields: ["main_product"], messages: "product", schema: schemas.product },
  { id: "sales", fields: ["current_sales"], messages: "sales", schema: schemas.sales },
  { id: "device", fields: [], messages: "device", schema: null },
  { id: "review", fields: [], messages: "review", schema: null },
  { id: "agreement", fields: [], messages: "agreement", schema: null },
] as const;

export type StepId = (typeof onboardingSteps)[number]["id"];
export const stepIds = onboardingSteps.map((s) => s.id) as [StepId, ...StepId[]];
export const isStepId = (value: string): value is StepId => (stepIds as string[]).includes(value);
export const stepSchema = <T extends keyof typeof schemas>(id: T) => schemas[id];
export const stepFields = (id: StepId): readonly string[] => onboardingSteps.find((s) => s.id === id)!.fields;

/** The step a field belongs to: `merchant.bank_account.routing_number` → bank; `device`; `agreement`. */
export function stepOfField(param: string): StepId | null {
  if (param === "device" || param.startsWith("device.") || param === "device_selection") return "device";
  if (param === "agreement") return "agreement";
  const top = param.replace(/^merchant\./, "").split(/[.[]/)[0]!;
  return onboardingSteps.find((s) => (s.fields as readonly string[]).includes(top))?.id ?? null;
}

/** Which steps are complete, given the params (`merchant.x.y`, `device`, `agreement`) still missing or invalid. */
export function stepProgress(problemParams: string[]): { id: StepId; complete: boolean }[] {
  const incomplete = new Set(problemParams.map(stepOfField));
  const dataComplete = onboardingSteps.every((s) => s.id === "review" || s.id === "agreement" || !incomplete.has(s.id));
  return onboardingSteps.map((s) => ({
    id: s.id,
    // Review is done once everything before it is; the agreement once it is signed too.
    complete: s.id === "review" ? dataComplete : s.id === "agreement" ? dataComplete && !incomplete.has("agreement") : !incomplete.has(s.id),
  }));
}

type SessionSteps = { steps: { id: StepId; complete: boolean }[]; requirements: { errors: { field: string }[] } };

export function firstIncompleteStep(session: Pick<SessionSteps, "steps">): StepId {
  return session.steps.find((s) => !s.complete)?.id ?? "agreement";
}

/** In the portal (underwriting asked for something), only the steps with a request, the review and the signature. */
export function listedSteps(session: SessionSteps): StepId[] {
  const requested = session.requirements.errors.map((e) => stepOfField(e.field));
  if (requested.length === 0) return [...stepIds];
  return stepIds.filter((id) => id === "review" || id === "agreement" || requested.includes(id));
}

/** A step can be opened once every step before it is complete. */
export function isReachable(session: Pick<SessionSteps, "steps">, id: StepId): boolean {
  return stepIds.indexOf(id) <= stepIds.indexOf(firstIncompleteStep(session));
}

/**
 * The step to show for a requested URL: unknown → null (404); past the first incomplete step, or
 * (in the portal) a step with fields but nothing asked of it → the first incomplete step.
 */
export function resolveStep(session: SessionSteps, requested: string): { step: StepId; redirect: boolean } | null {
  if (!isStepId(requested)) return null;
  const first = firstIncompleteStep(session);
  if (!isReachable(session, requested)) return { step: first, redirect: true };
  if (stepFields(requested).length && !listedSteps(session).includes(requested)) return { step: first, redirect: true };
  return { step: requested, redirect: false };
}
