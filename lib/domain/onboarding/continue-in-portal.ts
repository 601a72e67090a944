import { and, eq, gt, isNull } from "drizzle-orm";

import { type CheckedSession, checkSession, type SessionPrincipal } from "../../auth/onboarding-session";
import { clock } from "../../clock";
import { type OnboardingLinkRow, onboardingLinks } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { isOpen } from "../merchants/status";
import { startSessionOn } from "./open-onboarding-link";

/**
 * The link where a merchant answers what underwriting asked, reached from the page after
 * submitting (on the wizard's session), or null. The portal's link that underwriting made continues
 * exactly the session's link (`continues_link_id`); while the session's link is still the current
 * one (underwriting wrote to the ISV only) it is that link. Never a link the ISV made since (it
 * superseded the session on purpose), an expired or superseded one, nor once the merchant is decided
 * or nothing is asked.
 */
export async function portalLinkAfterSubmit(
  db: DbOrTx,
  { link, merchant }: Pick<CheckedSession, "link" | "merchant">,
): Promise<OnboardingLinkRow | null> {
  if (!isOpen(merchant.status) || !merchant.requirements?.errors?.length) return null;
  const now = clock.now();
  if (!link.supersededAt) return link.expiresAt > now ? link : null;
  const [next] = await db
    .select()
    .from(onboardingLinks)
    .where(
      and(
        eq(onboardingLinks.continuesLinkId, link.id),
        eq(onboardingLinks.merchantId, merchant.id),
        isNull(onboardingLinks.supersededAt),
        gt(onboardingLinks.expiresAt, now),
      ),
    );
  return next ?? null;
}

/**
 * "Answer now" on the page after submitting: the merchant answers there and then, in the portal,
 * instead of looking for the e-mail; the session moves onto the portal's link
 * (portalLinkAfterSubmit). Null: nothing to continue to.
 */
export async function continueInPortal(
  db: Db,
  use: SessionPrincipal & { host?: string },
): Promise<{ sessionToken: string } | null> {
  const session = await checkSession(db, use, { host: use.host, allowSuperseded: true });
  const link = await portalLinkAfterSubmit(db, session);
  return link ? { sessionToken: await startSessionOn(db, link) } : null;
}
