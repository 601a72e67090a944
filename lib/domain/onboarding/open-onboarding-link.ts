import { eq } from "drizzle-orm";

import { issueSessionToken } from "../../auth/onboarding-session";
import { digestSecret } from "../../auth/secrets";
import { clock } from "../../clock";
import { merchants, type OnboardingLinkRow, onboardingLinks } from "../../db/schema";
import { type Db } from "../../db/types";
import { getAccount } from "../accounts/get-account";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { moveMerchantIfAllowed } from "../merchants/status";

export type OpenLinkResult =
  | { kind: "open"; sessionToken: string; merchantId: string; isvAccountId: string }
  /**
   * Onboarding is over and the merchant approved: the link leads to its home's sign-in (a link e-mailed
   * to the contact), never into the home itself: an e-mailed onboarding link is no reusable login.
   */
  | { kind: "home"; merchantId: string; isvAccountId: string }
  | { kind: "expired" | "superseded"; refreshUrl: string | null; isvAccountId: string }
  | { kind: "unknown" };

/**
 * GET on a link's url: a valid link opens an onboarding session (the first open moves
 * NOT_STARTED to IN_PROGRESS), or leads to the home's sign-in once the merchant is approved; an
 * expired or superseded one never does.
 */
export async function openOnboardingLink(db: Db, token: string): Promise<OpenLinkResult> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return { kind: "unknown" };
  const [link] = await db
    .select()
    .from(onboardingLinks)
    .where(eq(onboardingLinks.tokenDigest, digestSecret(token)));
  if (!link) return { kind: "unknown" };
  if (link.supersededAt) return { kind: "superseded", refreshUrl: link.refreshUrl, isvAccountId: link.isvAccountId };
  if (link.expiresAt.getTime() <= clock.ms())
    return { kind: "expired", refreshUrl: link.refreshUrl, isvAccountId: link.isvAccountId };

  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, link.merchantId));
  if (merchant?.status === "APPROVED")
    return { kind: "home", merchantId: merchant.id, isvAccountId: link.isvAccountId };

  const sessionToken = await startSessionOn(db, link);
  return { kind: "open", sessionToken, merchantId: link.merchantId, isvAccountId: link.isvAccountId };
}

/**
 * Opens an onboarding session on `link` (the first open moves NOT_STARTED to IN_PROGRESS, with its
 * event): the link's url and the embedded onboarding component both start here.
 */
export async function startSessionOn(db: Db, link: OnboardingLinkRow) {
  await db.transaction(async (tx) => {
    if (!link.firstOpenedAt)
      await tx.update(onboardingLinks).set({ firstOpenedAt: clock.now() }).where(eq(onboardingLinks.id, link.id));
    const started = await moveMerchantIfAllowed(tx, link.merchantId, "startOnboarding");
    if (started) {
      const isv = await getAccount(tx, link.isvAccountId);
      await recordMerchantEvent(tx, "merchant.updated", started, { isv });
    }
  });
  return issueSessionToken({ merchantId: link.merchantId, linkId: link.id, accountId: link.isvAccountId });
}
