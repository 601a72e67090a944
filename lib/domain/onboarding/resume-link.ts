import { and, count, eq, gt } from "drizzle-orm";

import { checkSession } from "../../auth/onboarding-session";
import { clock } from "../../clock";
import { outbox } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError } from "../../errors";
import { type Locale } from "../../i18n/locales";
import { queueEmail } from "../../notifications/send-email";
import { resumeLink } from "../../notifications/templates";
import { brandOf, settingsOf } from "../accounts/isv-facts";
import { recordAudit } from "../audit/record-audit";
import { insertOnboardingLink } from "./create-onboarding-link";
import { type SessionUse } from "./session";

/** At most this many "finish later" links a merchant may e-mail itself in an hour. */
export const RESUME_LINKS_PER_HOUR = 3;
const KIND = "onboarding.resume_link";

/**
 * POST /v1/onboarding/session/resume_link: "save and finish later" (docs/reference.md section 12).
 * The answers are already saved at each step; this e-mails the merchant a new link to its
 * application (the same return URL, state and options as the link it came with), which supersedes
 * that link: the session in hand ends and the e-mailed link is the way back. Audited as the merchant
 * in the wizard making a link; at most RESUME_LINKS_PER_HOUR an hour (429 `rate_limited`).
 */
export async function emailResumeLink(db: Db, use: SessionUse, input: { email: string; locale: Locale }) {
  return db.transaction(async (tx) => {
    const session = await checkSession(tx, use, { forUpdate: true, host: use.host });
    const { merchant, isv, link } = session;
    const [sent] = await tx
      .select({ n: count() })
      .from(outbox)
      .where(
        and(
          eq(outbox.merchantId, merchant.id),
          eq(outbox.kind, KIND),
          gt(outbox.createdAt, new Date(clock.ms() - 3600_000)),
        ),
      );
    if ((sent?.n ?? 0) >= RESUME_LINKS_PER_HOUR)
      throw new AppError("rate_limited", "Too many links were e-mailed in the last hour; try again later", {
        retryAfterSeconds: 3600,
      });
    const made = await insertOnboardingLink(tx, isv, merchant.id, {
      returnUrl: link.returnUrl,
      refreshUrl: link.refreshUrl,
      state: link.state,
      allowSkipDeviceSelection: link.allowSkipDeviceSelection,
    });
    const hours = Math.max(1, Math.round(settingsOf(isv).onboarding_link_ttl_seconds / 3600));
    await queueEmail(tx, {
      accountId: isv.id,
      merchantId: merchant.id,
      kind: KIND,
      to: input.email,
      locale: input.locale,
      ...resumeLink({ brand: brandOf(isv), locale: input.locale, url: made.url, hours }),
    });
    await recordAudit(tx, { accountId: isv.id, action: "onboarding_link.created", resourceId: merchant.id });
    return { object: "resume_link" as const, sent_to: input.email, expires_at: made.link.expiresAt.toISOString() };
  });
}
