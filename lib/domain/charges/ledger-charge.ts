import { type ChargeRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { chargeLedgerFacts } from "../../ledger/reads";

/**
 * A charge with what the ledger says of it: its `net` (null for a charge with no posting: declined)
 * and its `settlementId`, the settlement that took it (null until one did).
 */
export type LedgerCharge = ChargeRow & { net: number | null; settlementId: string | null };

/** The charges with the ledger's facts (lib/ledger/reads.ts `chargeLedgerFacts`), one query. */
export async function withLedgerFacts(db: DbOrTx, rows: readonly ChargeRow[]): Promise<LedgerCharge[]> {
  const facts = await chargeLedgerFacts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    net: facts.get(r.id)?.net ?? null,
    settlementId: facts.get(r.id)?.settlementId ?? null,
  }));
}

/** One charge with the ledger's facts. */
export async function withLedgerFact(db: DbOrTx, row: ChargeRow): Promise<LedgerCharge> {
  const facts = await chargeLedgerFacts(db, [row.id]);
  return { ...row, net: facts.get(row.id)?.net ?? null, settlementId: facts.get(row.id)?.settlementId ?? null };
}
