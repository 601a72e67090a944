import { type ChargeRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { chargeNets } from "../../ledger/reads";

/** A charge with its `net`, the ledger's (null for a charge with no posting: declined). */
export type ChargeWithNet = ChargeRow & { net: number | null };

/** The charges with their nets read from the ledger (lib/ledger/reads.ts `chargeNets`), one query. */
export async function withNets(db: DbOrTx, rows: readonly ChargeRow[]): Promise<ChargeWithNet[]> {
  const nets = await chargeNets(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, net: nets.get(r.id) ?? null }));
}

/** One charge with its net. */
export async function withNet(db: DbOrTx, row: ChargeRow): Promise<ChargeWithNet> {
  const nets = await chargeNets(db, [row.id]);
  return { ...row, net: nets.get(row.id) ?? null };
}
