import type { ReserveRow } from "../db/schema";

/** A reserve as the API returns it (docs/reference.md section 20; times in milliseconds). */
export function serializeReserve(
  row: ReserveRow,
  facts: { held: number; nextRelease: { amount: number; date: string } | null },
) {
  return {
    object: "reserve" as const,
    id: row.id,
    merchant_id: row.merchantId,
    type: row.type,
    percent: row.percentBps === null ? null : row.percentBps / 100,
    hold_days: row.holdDays,
    amount: row.amount,
    release_on: row.releaseOn,
    reason: row.reason,
    status: row.status,
    held: facts.held,
    next_release: facts.nextRelease,
    created_by: row.createdBy,
    created_at: row.createdAt.getTime(),
    released_at: row.releasedAt?.getTime() ?? null,
  };
}
export type ReserveJson = ReturnType<typeof serializeReserve>;
