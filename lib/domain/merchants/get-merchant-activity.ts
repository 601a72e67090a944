import { and, desc, eq } from "drizzle-orm";

import { events, onboardingLinks } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { findMerchant } from "./find-merchant";

/** One merchant with its recent events and its latest onboarding link (the dashboard's merchant page). */
export async function getMerchantActivity(db: DbOrTx, isvAccountId: string, merchantId: string) {
  const merchant = await findMerchant(db, isvAccountId, merchantId);
  const history = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data })
    .from(events)
    .where(and(eq(events.accountId, isvAccountId), eq(events.objectId, merchant.id)))
    .orderBy(desc(events.seq))
    .limit(50);
  const [latestLink] = await db
    .select()
    .from(onboardingLinks)
    .where(eq(onboardingLinks.merchantId, merchant.id))
    .orderBy(desc(onboardingLinks.createdAt))
    .limit(1);
  return { merchant, history, latestLink: latestLink ?? null };
}
