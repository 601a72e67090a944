import { type AccountRow } from "../../db/schema";
import { costProfileOf, disputeFeeOf } from "../accounts/isv-facts";

/**
 * What a dispute is priced at (docs/reference.md sections 13 and 19), in cents: the ISV's
 * `dispute_fee` taken from its merchant, what a dispute costs the platform (the ISV's cost profile),
 * and the ISV's margin on it (the fee less the cost: negative when the fee is below the cost).
 */
export function disputePrice(isv: Pick<AccountRow, "id" | "settings" | "costProfile">) {
  const fee = disputeFeeOf(isv);
  const costs = costProfileOf(isv).dispute_cost;
  return { fee, costs, margin: fee - costs };
}
