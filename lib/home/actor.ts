import type { Actor } from "../audit/actor";
import type { MerchantRow, MerchantSessionRow } from "../db/schema";
import type { FrameSession } from "../domain/embed/account-sessions";

/**
 * Who acts in the home (the audit's actor): the merchant (via `home`, or `embedded` inside an ISV's
 * page), or the ISV when its own login link opened the session; with the client's address.
 */
export function homeActor(
  home: { merchant: MerchantRow; frame: FrameSession | null; session: MerchantSessionRow | null },
  clientAddress: string | null,
): Actor {
  return home.session?.via === "isv"
    ? { type: "isv", id: home.merchant.isvAccountId, via: "home", clientAddress }
    : { type: "merchant", id: home.merchant.id, via: home.frame ? "embedded" : "home", clientAddress };
}
