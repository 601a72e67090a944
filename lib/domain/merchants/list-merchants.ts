import { and, eq, ilike, type SQL, sql } from "drizzle-orm";

import { anyOf } from "../../db/conditions";
import { cursorPage } from "../../db/cursor-page";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import { ownerKeys } from "../../schemas/vocabulary";

/** Newest first (by lead_id), cursor pagination by merchant id, within one ISV. */
export async function listMerchants(
  db: DbOrTx,
  isvAccountId: string,
  query: ListQuery & { lead_onboarding_status?: string; search?: string },
) {
  const filters: SQL[] = [eq(merchants.isvAccountId, isvAccountId)];
  if (query.lead_onboarding_status) filters.push(eq(merchants.status, query.lead_onboarding_status as "NOT_STARTED"));
  if (query.search?.trim()) {
    // By legal name or DBA, an owner's e-mail, the merchant's id (exactly), or by phone (digits
    // anywhere in the E.164 number).
    const search = query.search.trim();
    const text = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    const digits = search.replace(/\D/g, "");
    filters.push(
      anyOf(
        ilike(sql`${merchants.application}->>'legal_business_name'`, text),
        ilike(sql`${merchants.application}->>'doing_business_as'`, text),
        ...(search.includes("@")
          ? ownerKeys.map((owner) => ilike(sql`${merchants.application}->${owner}->>'email'`, text))
          : []),
        ...(/^mer_[0-9A-Za-z]+$/.test(search) ? [eq(merchants.id, search)] : []),
        ...(digits.length >= 3 && !search.startsWith("mer_") ? [ilike(merchants.phone, `%${digits}%`)] : []),
      ),
    );
  }
  return cursorPage(query, {
    noun: "merchant",
    seq: merchants.leadId,
    filters,
    positionOf: async (id) =>
      (
        await db
          .select({ leadId: merchants.leadId })
          .from(merchants)
          .where(and(eq(merchants.isvAccountId, isvAccountId), eq(merchants.id, id)))
      )[0]?.leadId ?? null,
    select: (where, orderBy, limit) => db.select().from(merchants).where(where).orderBy(orderBy).limit(limit),
  });
}
