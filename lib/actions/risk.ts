"use server";
import { revalidatePath } from "next/cache";

import { asIsvUser } from "@/lib/dashboard/session";
import { updateAccount } from "@/lib/domain/accounts/update-account";
import { resolveRiskAlert } from "@/lib/domain/risk/risk-alerts";
import { invalidFields, issuesToFieldErrors } from "@/lib/errors";
import { riskActionsPatchSchema } from "@/lib/schemas/risk";

import { attempt } from "./result";

// The dashboard's risk page (docs/reference.md section 20): resolve an alert, choose each rule's action.

export async function resolveRiskAlertAction(alertId: string): Promise<{ ok: boolean }> {
  return asIsvUser("merchants:write", async ({ db, account }) => {
    const done = await attempt(() => resolveRiskAlert(db, { isvAccountId: account.id }, String(alertId).slice(0, 64)));
    if (done.ok) revalidatePath("/dashboard/risk");
    return { ok: done.ok };
  });
}

export async function riskActionsAction(input: unknown): Promise<{ ok: boolean }> {
  return asIsvUser("account:write", async ({ db, account, userId, signedInAt, role }) => {
    const done = await attempt(async () => {
      const parsed = riskActionsPatchSchema.safeParse(input);
      if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues, ["risk_actions"]));
      return updateAccount(
        db,
        account.id,
        { settings: { risk_actions: parsed.data } },
        { kind: "user", userId, signedInAt, role },
      );
    });
    if (done.ok) revalidatePath("/dashboard/risk");
    return { ok: done.ok };
  });
}
