import { clock } from "../../clock";
import { type DbOrTx } from "../../db/types";
import { netVolumes } from "../../ledger/volume";

/** How far back the merchant list's volume looks. */
export const VOLUME_DAYS = 30;

/**
 * Each listed merchant's card and bank volume over the last VOLUME_DAYS days, read from the ledger
 * (lib/ledger/volume.ts): payments less refunds and returns, and how many payments; in cents, one
 * query for the page. Only the ISV's own merchants; those without payments are absent (0).
 */
export async function merchantVolumes(
  db: DbOrTx,
  isvAccountId: string,
  merchantIds: string[],
  now = clock.now(),
): Promise<Map<string, { amount: number; count: number }>> {
  return netVolumes(db, merchantIds, new Date(now.getTime() - VOLUME_DAYS * 86_400_000), isvAccountId);
}
