// The application's vocabulary lists that pages, the wizard's frame, the database schema and the
// API all read: written once here, with no imports, so that any bundle may load them for nothing.

/** The owners of an application, in order (one to four). */
export const ownerKeys = ["owner_one", "owner_two", "owner_three", "owner_four"] as const;
export type OwnerKey = (typeof ownerKeys)[number];

/** The wizard's steps, in order (lib/onboarding/steps.ts gives each its fields and messages). */
export const stepIds = ["business", "owners", "bank", "product", "sales", "device", "review", "agreement"] as const;
export type StepId = (typeof stepIds)[number];

/** A merchant's onboarding status (`lead_onboarding_status`). */
export const onboardingStatuses = ["NOT_STARTED", "IN_PROGRESS", "COMPLETED", "APPROVED", "FAILED"] as const;
export type OnboardingStatus = (typeof onboardingStatuses)[number];

/** A device's IMEI status. */
export const imeiStatuses = ["ACTIVE", "BLOCKED", "UNKNOWN"] as const;

/** A merchant's pricing models (`capabilities.types`): the card models, and ACH. */
export const capabilityTypes = [
  "two_tiered",
  "pass_through_ic",
  "flat_rate",
  "tiered",
  "cash_discount",
  "ach",
] as const;
export type PricingModel = (typeof capabilityTypes)[number];
/** The card pricing models: every capability type but ACH. */
export type CardModel = Exclude<PricingModel, "ach">;
export const cardModels = capabilityTypes.filter((t): t is CardModel => t !== "ach");
export const isCardModel = (type: string): type is CardModel => (cardModels as readonly string[]).includes(type);
