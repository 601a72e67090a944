import { type DbOrTx } from "../../db/types";
import { balanceOf } from "../../ledger/balances";
import { findScopedMerchant, type Scope } from "../scope";

/** GET /v1/balance: a merchant's available, pending and reserved cents, summed from its ledger accounts. */
export async function getBalance(db: DbOrTx, scope: Scope, merchantId?: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  return { merchantId: merchant.id, balance: await balanceOf(db, merchant.id) };
}
