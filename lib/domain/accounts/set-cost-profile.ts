import { and, eq } from "drizzle-orm";

import { one } from "../../db/one";
import { accounts } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalid, notFound } from "../../errors";
import { type CostProfile, costProfileSchema } from "../../schemas/cost-profile";
import { recordAudit } from "../audit/record-audit";
import { costProfileOf } from "./isv-facts";

/** A change to a cost profile: any of its figures (the operator's CLI flags), the rest kept. */
export type CostProfileChange = {
  card?: Partial<Omit<CostProfile["card"], "interchange">>;
  ach?: Partial<CostProfile["ach"]>;
} & Partial<Omit<CostProfile, "card" | "ach">>;

/** An ISV's cost profile, as the operator reads it (404 for an account that is not an ISV). */
export async function getCostProfile(db: Db, accountId: string): Promise<CostProfile> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.type, "isv")));
  if (!row) throw notFound("account", accountId, "account_id");
  return costProfileOf(row);
}

/**
 * The operator sets what the platform charges an ISV: the figures given change, the others stay;
 * the whole profile is validated (400 naming the field) and kept, audited (`account.cost_profile_updated`,
 * the figures changed). Applies to the charges made from then on.
 */
export async function setCostProfile(db: Db, accountId: string, change: CostProfileChange): Promise<CostProfile> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.type, "isv")))
      .for("update");
    if (!row) throw notFound("account", accountId, "account_id");
    const current = costProfileOf(row);
    const next = {
      ...current,
      ...change,
      card: { ...current.card, ...change.card },
      ach: { ...current.ach, ...change.ach },
    };
    const parsed = costProfileSchema.safeParse(next);
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      const field = issue?.path.join(".") ?? "cost_profile";
      throw invalid(field, `${field}: ${issue?.message ?? "is invalid"}`);
    }
    const changed = [
      ...Object.keys(change.card ?? {}).map((k) => `card.${k}`),
      ...Object.keys(change.ach ?? {}).map((k) => `ach.${k}`),
      ...Object.keys(change).filter((k) => k !== "card" && k !== "ach"),
    ];
    one(await tx.update(accounts).set({ costProfile: parsed.data }).where(eq(accounts.id, accountId)).returning());
    await recordAudit(tx, {
      accountId,
      action: "account.cost_profile_updated",
      resourceId: accountId,
      fields: changed.map((f) => `cost_profile.${f}`),
    });
    return parsed.data;
  });
}
