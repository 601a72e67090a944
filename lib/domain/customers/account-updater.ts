import { eq } from "drizzle-orm";

import { one } from "../../db/one";
import { type PaymentMethodRow, paymentMethods } from "../../db/schema";
import { type Db } from "../../db/types";
import { cardExpired } from "../../payments/card-expiry";
import { serializePaymentMethod } from "../../serializers/customer";
import { recordEvent } from "../events/record-event";

// The card networks' account updater (docs/reference.md section 21): when an issuer reissues a card,
// the network tells the processor its new expiry, and a saved card keeps working. The sandbox
// simulates it for the card 4000000000003063 (its vault says `account_updater`): found expired before
// a charge, its expiry is renewed three years on and `payment_method.updated` is sent. A real
// processor's updater would answer here instead.

/** The method as the updater leaves it at `now`: renewed when it had expired and the network knows its new expiry. */
export async function renewByAccountUpdater(db: Db, method: PaymentMethodRow, now: Date): Promise<PaymentMethodRow> {
  if (method.type !== "card" || method.vault.account_updater !== true || !cardExpired(method, now)) return method;
  return db.transaction(async (tx) => {
    const row = one(
      await tx
        .update(paymentMethods)
        .set({ expYear: now.getUTCFullYear() + 3, updatedAt: now })
        .where(eq(paymentMethods.id, method.id))
        .returning(),
    );
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "payment_method.updated",
      objectId: row.id,
      data: serializePaymentMethod(row, now),
      fields: ["card.exp_year"],
    });
    return row;
  });
}
