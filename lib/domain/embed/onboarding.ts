import { and, desc, eq, isNull } from "drizzle-orm";

import { issueSessionToken } from "../../auth/onboarding-session";
import { merchants, onboardingLinks } from "../../db/schema";
import { type Db } from "../../db/types";
import { getAccount } from "../accounts/get-account";
import { isOpen } from "../merchants/status";
import { insertOnboardingLink } from "../onboarding/create-onboarding-link";
import { startSessionOn } from "../onboarding/open-onboarding-link";
import type { FrameSession } from "./account-sessions";

/**
 * The onboarding component's session: the wizard (or the portal, when underwriting asked for
 * more) on the merchant's current link, exactly as if its url had been opened; a new link (the
 * earlier ones superseded, as POST /v1/onboarding_links does) only when the merchant has none. Once
 * submitted, approved or declined: the completion page, which says which. Null: the merchant is
 * gone or not the session's ISV's.
 */
export async function embeddedOnboarding(db: Db, frame: FrameSession) {
  const [merchant] = await db
    .select()
    .from(merchants)
    .where(and(eq(merchants.id, frame.merchantId), eq(merchants.isvAccountId, frame.isvAccountId)));
  if (!merchant) return null;
  const [current] = await db
    .select()
    .from(onboardingLinks)
    .where(and(eq(onboardingLinks.merchantId, merchant.id), isNull(onboardingLinks.supersededAt)))
    .orderBy(desc(onboardingLinks.createdAt))
    .limit(1);
  const link =
    current ??
    (await db.transaction(async (tx) => {
      const made = await insertOnboardingLink(tx, await getAccount(tx, merchant.isvAccountId), merchant.id, {
        returnUrl: null,
        refreshUrl: null,
        state: null,
        allowSkipDeviceSelection: null,
      });
      return made.link;
    }));
  if (isOpen(merchant.status)) return { sessionToken: await startSessionOn(db, link), path: "/onboarding" };
  const sessionToken = await issueSessionToken({
    merchantId: merchant.id,
    linkId: link.id,
    accountId: merchant.isvAccountId,
  });
  return { sessionToken, path: "/onboarding/complete" };
}
