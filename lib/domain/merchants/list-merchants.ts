import { and, asc, desc, eq, gt, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { merchants } from "../../db/schema";
import { ApiError } from "../../api/errors";
import type { ListQuery } from "../../api/pagination";
import { findMerchant } from "./find-merchant";

/** Newest first (by lead_id), cursor pagination by merchant id, within one ISV. */
export async function listMerchants(db: DbOrTx, isvAccountId: string, query: ListQuery & { lead_onboarding_status?: string; search?: string }) {
  if (query.starting_after && query.ending_before) {
    throw new ApiError("invalid_request_error", "parameter_invalid", "Send starting_after or ending_before, not both", { param: "ending_before" });
  }
  const filters: SQL[] = [eq(merchants.isvAccountId, isvAccountId)];
  if (query.lead_onboarding_status) filters.push(eq(merchants.status, query.lead_onboarding_status as "NOT_STARTED"));
  if (query.search?.trim()) {
    // By legal name or DBA, or by phone (digits anywhere in the E.164 number).
    const text = `%${query.search.trim().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    const digits = query.search.replace(/\D/g, "");
    filters.push(
      or(
        ilike(sql`${merchants.application}->>'legal_business_name'`, text),
        ilike(sql`${merchants.application}->>'doing_business_as'`, text),
        ...(digits.length >= 3 ? [ilike(merchants.phone, `%${digits}%`)] : []),
      )!,
    );
  }
  const cursorId = query.starting_after ?? query.ending_before;
  if (cursorId) {
    const cursor = await findMerchant(db, isvAccountId, cursorId).catch(() => {
      throw new ApiError("invalid_request_error", "parameter_invalid", `No such merchant: '${cursorId}'`, { param: query.starting_after ? "starting_after" : "ending_before" });
    });
    filters.push(query.starting_after ? lt(merchants.leadId, cursor.leadId) : gt(merchants.leadId, cursor.leadId));
  }
  const rows = await db
    .select()
    .from(merchants)
    .where(and(...filters))
    .orderBy(query.ending_before ? asc(merchants.leadId) : desc(merchants.leadId))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.ending_before) page.reverse();
  return { rows: page, hasMore };
}
