import { and, eq, isNull } from "drizzle-orm";

import { digestSecret } from "../../auth/secrets";
import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { one } from "../../db/one";
import type { AccountRow } from "../../db/schema";
import { onboardingLinks } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalidState } from "../../errors";
import { createId, randomBase62 } from "../../ids";
import { getAccount } from "../accounts/get-account";
import { settingsOf } from "../accounts/isv-facts";
import { recordAudit } from "../audit/record-audit";
import { findMerchant } from "../merchants/find-merchant";
import { isFinal } from "../merchants/status";

export type CreateLinkInput = {
  merchant_id: string;
  type: "account_onboarding";
  return_url?: string;
  redirect_url?: string;
  refresh_url?: string;
  state?: string;
  allow_skip_device_selection?: boolean;
};

/**
 * POST /v1/onboarding_links (docs/reference.md section 5). The url carries an opaque random token whose
 * digest alone is stored; a new link supersedes every earlier link of the merchant in the same
 * transaction.
 */
export async function createOnboardingLink(db: Db, isvAccountId: string, input: CreateLinkInput) {
  if (input.return_url && input.redirect_url && input.return_url !== input.redirect_url) {
    throw new AppError(
      "parameter_invalid",
      "return_url and redirect_url are the same parameter: send one, or both equal",
      { param: "redirect_url" },
    );
  }
  const returnUrl = input.return_url ?? input.redirect_url ?? null;
  return db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, isvAccountId, input.merchant_id, { forUpdate: true });
    if (isFinal(merchant.status)) {
      throw invalidState(
        `The merchant's onboarding is over (lead_onboarding_status ${merchant.status}); no link can be created`,
      );
    }
    const isv = await getAccount(tx, isvAccountId);
    const made = await insertOnboardingLink(tx, isv, merchant.id, {
      returnUrl,
      refreshUrl: input.refresh_url ?? null,
      state: input.state ?? null,
      allowSkipDeviceSelection: input.allow_skip_device_selection ?? null,
    });
    await recordAudit(tx, { accountId: isvAccountId, action: "onboarding_link.created", resourceId: merchant.id });
    return made;
  });
}

/** In the caller's transaction: supersede the merchant's links and make a new one (its url carries the token). */
export async function insertOnboardingLink(
  tx: DbOrTx,
  isv: AccountRow,
  merchantId: string,
  options: {
    returnUrl: string | null;
    refreshUrl: string | null;
    state: string | null;
    allowSkipDeviceSelection: boolean | null;
    /** The link this one continues (underwriting's portal link after a submission): see the column. */
    continuesLinkId?: string | null;
  },
) {
  const settings = settingsOf(isv);
  const token = randomBase62(43);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + settings.onboarding_link_ttl_seconds * 1000);
  await tx
    .update(onboardingLinks)
    .set({ supersededAt: now })
    .where(and(eq(onboardingLinks.merchantId, merchantId), isNull(onboardingLinks.supersededAt)));
  const link = one(
    await tx
      .insert(onboardingLinks)
      .values({
        id: createId("lnk"),
        isvAccountId: isv.id,
        merchantId,
        tokenDigest: digestSecret(token),
        ...options,
        expiresAt,
        createdAt: now,
      })
      .returning(),
  );
  return { link: link, url: `${hostedBaseUrl(isv)}/onboard/${token}` };
}
