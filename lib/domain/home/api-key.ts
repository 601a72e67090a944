import { eq } from "drizzle-orm";

import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { getAccount } from "../accounts/get-account";
import { rotateApiKeyIn } from "../accounts/rotate-api-key";
import { queueChangeNotices } from "./change-notices";
import { type ChangingSession, requireStepUp } from "./settings";

/**
 * The merchant's own secret key, made in its home (docs/reference.md section 15): only by a session
 * signed in from the contact's e-mail within the step-up window (never the ISV's login link, never
 * an embedded component) and not while payouts are frozen; the contact and owner one are e-mailed
 * with a "this wasn't me" link; the key remembers the session that made it, and ends when the ISV
 * signs the merchant out everywhere or a change is reported. The old key stops working at once.
 */
export async function rotateKeyFromHome(db: Db, merchantId: string, session: ChangingSession) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || merchant.status !== "APPROVED" || !merchant.merchantAccountId)
      throw new AppError("merchant_not_approved", "The merchant has no account of its own yet");
    await requireStepUp(tx, merchant, session);
    const rotated = await rotateApiKeyIn(
      tx,
      merchant.merchantAccountId,
      env.APP_ENV === "production",
      session?.id ?? null,
    );
    const isv = await getAccount(tx, merchant.isvAccountId);
    await queueChangeNotices(tx, isv, merchant, { kind: "api_key", last4: rotated.secret_key.slice(-4) });
    return rotated;
  });
}
