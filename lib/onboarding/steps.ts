// The wizard's steps in order: each owns some top-level fields of the onboarding information and
// its own URL (/onboarding/<id>). The API's session answer and the wizard both read this list.
export const onboardingSteps = [
  { id: "business", fields: ["legal_business_name", "doing_business_as", "business_type", "tin_type", "tin", "business_established_date", "legal_phone", "business_phone", "legal_business_address", "dba_address", "main_contact_person"] },
  { id: "owners", fields: ["owner_one", "owner_two", "owner_three", "owner_four"] },
  { id: "bank", fields: ["bank_account"] },
  { id: "product", fields: ["main_product"] },
  { id: "sales", fields: ["current_sales"] },
  { id: "device", fields: [] },
  { id: "review", fields: [] },
  { id: "agreement", fields: [] },
] as const;

export type StepId = (typeof onboardingSteps)[number]["id"];

/** Which steps are complete, given the params (`merchant.x.y`, `device`) still missing or invalid. */
export function stepProgress(problemParams: string[]) {
  const dataSteps = onboardingSteps.filter((s) => s.id !== "review" && s.id !== "agreement");
  const progress = dataSteps.map((step) => ({
    id: step.id,
    complete:
      step.id === "device"
        ? !problemParams.includes("device")
        : !problemParams.some((p) => (step.fields as readonly string[]).some((f) => p === `merchant.${f}` || p.startsWith(`merchant.${f}.`) || p.startsWith(`merchant.${f}[`))),
  }));
  const dataComplete = progress.every((p) => p.complete);
  return [
    ...progress,
    // Review is done once everything before it is; the agreement once it is signed.
    { id: "review" as const, complete: dataComplete },
    { id: "agreement" as const, complete: dataComplete && !problemParams.includes("agreement") },
  ];
}
