import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { balanceTransaction } from "../../ledger/balance-transactions";
import { type Scope } from "../scope";

export { listBalanceTransactions } from "../../ledger/balance-transactions";

/** One balance transaction within the caller's scope (another account's, or the platform's own move, is a 404). */
export async function findBalanceTransaction(db: DbOrTx, scope: Scope, id: string) {
  const row = await balanceTransaction(db, scope, id);
  if (!row) throw notFound("balance_transaction", id);
  return row;
}
