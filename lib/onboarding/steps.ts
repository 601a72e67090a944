// The wizard's step registry, the one source of truth for its steps: each step's URL id, the
// top-level fields of the onboarding information it owns and its message namespace. The API's
// session answer, the pages, the wizard, the review step and the portal all read this list;
// nothing here may import server code or a validation library (the wizard's frame loads it on
// every step; each form's schema is in ./step-schemas.ts, loaded with that step's form).

import { ownerKeys, type StepId, stepIds } from "../schemas/vocabulary";

export { type StepId, stepIds };

export const businessFields = [
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

export const onboardingSteps = [
  { id: "business", fields: businessFields, messages: "business" },
  { id: "owners", fields: ownerKeys, messages: "owners" },
  { id: "bank", fields: ["bank_account"], messages: "bank" },
  { id: "product", fields: ["main_product"], messages: "product" },
  { id: "sales", fields: ["current_sales"], messages: "sales" },
  { id: "device", fields: [], messages: "device" },
  { id: "review", fields: [], messages: "review" },
  { id: "agreement", fields: [], messages: "agreement" },
] as const;

// The registry lists the vocabulary's steps, in its order (checked when the types are).
type Ids<T> = { [K in keyof T]: T[K] extends { id: infer I } ? I : never };
const sameSteps: Ids<typeof onboardingSteps> = stepIds;
void sameSteps;
export const isStepId = (value: string): value is StepId => (stepIds as readonly string[]).includes(value);
export const stepFields = (id: StepId): readonly string[] => onboardingSteps.find((s) => s.id === id)?.fields ?? [];

/** The step a field belongs to: `merchant.bank_account.routing_number` → bank; `device`; `agreement`. */
export function stepOfField(param: string): StepId | null {
  if (param === "device" || param.startsWith("device.") || param === "device_selection") return "device";
  if (param === "agreement") return "agreement";
  // A document a verification check asks for is asked on the step of its subject (the business's on business).
  if (param === "merchant.verification.document") return "business";
  const [top = ""] = param.replace(/^merchant\./, "").split(/[.[]/);
  return onboardingSteps.find((s) => (s.fields as readonly string[]).includes(top))?.id ?? null;
}

/**
 * Which steps are complete, given the params (`merchant.x.y`, `device`, `agreement`) still missing or
 * invalid, and which underwriting asked for in this round (`asked`: answered or not).
 */
export function stepProgress(
  problemParams: string[],
  asked: string[] = [],
): { id: StepId; complete: boolean; requested: boolean }[] {
  const requested = new Set(asked.map(stepOfField));
  const incomplete = new Set(problemParams.map(stepOfField));
  const dataComplete = onboardingSteps.every((s) => s.id === "review" || s.id === "agreement" || !incomplete.has(s.id));
  return onboardingSteps.map((s) => ({
    id: s.id,
    requested: requested.has(s.id),
    // Review is done once everything before it is; the agreement once it is signed too.
    complete:
      s.id === "review"
        ? dataComplete
        : s.id === "agreement"
          ? dataComplete && !incomplete.has("agreement")
          : !incomplete.has(s.id),
  }));
}

type SessionSteps = { steps: { id: StepId; complete: boolean; requested?: boolean }[] };

export function firstIncompleteStep(session: Pick<SessionSteps, "steps">): StepId {
  return session.steps.find((s) => !s.complete)?.id ?? "agreement";
}

/**
 * In the portal (underwriting asked for something), only the steps asked for in this round (still
 * so after they are answered: the counter does not jump), the review and the signature.
 */
export function listedSteps(session: SessionSteps): StepId[] {
  const requested = session.steps.filter((s) => s.requested).map((s) => s.id);
  if (requested.length === 0) return [...stepIds];
  return stepIds.filter((id) => id === "review" || id === "agreement" || requested.includes(id));
}

/** Whether the session is the portal: underwriting asked for something in this round. */
export const inPortal = (session: SessionSteps) => session.steps.some((s) => s.requested);

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
