import { desc, eq, sql } from "drizzle-orm";

import { digestSecret, generateAccountSid, generateSecretKey, newPublishableKey } from "../../auth/secrets";
import { clock } from "../../clock";
import type { AccountRow, MerchantRow } from "../../db/schema";
import { accounts, apiKeys, onboardingLinks, users } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { env } from "../../env";
import { createId } from "../../ids";
import type { LooseJson } from "../../loose-json";
import { merchantLocale } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import { informationRequestedForIsv, informationRequestedForMerchant } from "../../notifications/templates";
import { requestNames } from "../../onboarding/request-names";
import { isCardModel } from "../../schemas/vocabulary";
import type { Finding } from "../../underwriting/rules";
import { getAccount } from "../accounts/get-account";
import { brandOf, settingsOf } from "../accounts/isv-facts";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { askedFor } from "../merchants/requirements";
import { moveMerchant } from "../merchants/status";
import { insertOnboardingLink } from "../onboarding/create-onboarding-link";

// The decisions on a submitted application (docs/reference.md sections 4, 7, 8), each a move of the
// merchant's state machine (lib/domain/merchants/status.ts): if two deciders race, one wins and the
// other gets 409 naming the current state. Each writes its event in the same transaction.

type Decider = { by: string; reason?: string };

/** APPROVED, and provisioning: processors, gateway id, the merchant's key pair, tokenizer, device. */
export async function approveMerchant(tx: DbOrTx, merchant: MerchantRow, decider: Decider) {
  const isv = await getAccount(tx, merchant.isvAccountId);
  const types: string[] =
    (merchant.application.capabilities as { types?: string[] } | undefined)?.types ??
    merchant.defaultCapabilities.types ??
    [];
  const processors = [
    ...(types.some(isCardModel) ? [{ id: createId("proc"), processor_type: "CREDIT_CARD" as const }] : []),
    ...(types.includes("ach") ? [{ id: createId("proc"), processor_type: "ACH" as const }] : []),
  ];
  const live = env.APP_ENV === "production";
  const merchantAccountId = createId("acct");
  const secret = generateSecretKey(live);
  const name = String((merchant.application.legal_business_name as string | undefined) ?? merchant.id);
  await tx.insert(accounts).values({
    id: merchantAccountId,
    type: "merchant",
    parentId: merchant.isvAccountId,
    sid: generateAccountSid(),
    name,
    // The merchant's own key answers in its ISV's version (the ISV's integration uses it).
    apiVersion: sql`(select ${accounts.apiVersion} from ${accounts} where ${accounts.id} = ${merchant.isvAccountId})`,
  });
  await tx.insert(apiKeys).values({
    id: createId("key"),
    accountId: merchantAccountId,
    secretDigest: digestSecret(secret),
    last4: secret.slice(-4),
  });
  const now = clock.now();
  const terminalId = merchant.deviceId ? createId("tml") : null;
  const approved = await moveMerchant(tx, merchant.id, "approveMerchant", {
    requirements: null,
    approvedAt: now,
    merchantAccountId,
    underwriting: {
      outcome: "approve",
      decided_by: decider.by,
      reason: decider.reason ?? null,
      decided_at: now.toISOString(),
    },
    paymentKeys: {
      pub_api_key: newPublishableKey(live),
      api_key_last4: secret.slice(-4),
      gateway_merchant_id: createId("gw"),
      processors,
    },
    payment: { ...merchant.payment, tokenizer_active: true, terminal_id: terminalId },
    ...(merchant.deviceId ? { deviceImeiStatus: "ACTIVE" as const, deviceUpdatedAt: now } : {}),
  });
  await recordMerchantEvent(tx, "merchant.approved", approved, { isv });
  return approved;
}

export async function declineMerchant(tx: DbOrTx, merchant: MerchantRow, decider: Decider) {
  const isv = await getAccount(tx, merchant.isvAccountId);
  const declined = await moveMerchant(tx, merchant.id, "declineMerchant", {
    underwriting: {
      outcome: "decline",
      decided_by: decider.by,
      reason: decider.reason ?? null,
      decided_at: clock.now().toISOString(),
    },
  });
  await recordMerchantEvent(tx, "merchant.declined", declined, { isv });
  return declined;
}

/** Stays COMPLETED until an operator decides (npm run cli -- merchant review). */
export async function sendToManualReview(tx: DbOrTx, merchant: MerchantRow, reason: string) {
  return moveMerchant(tx, merchant.id, "holdForReview", {
    underwriting: {
      outcome: "manual_review",
      reason,
      decided_at: clock.now().toISOString(),
      // Which submission went to review: the underwriting job run again for it (a verification check
      // finishing late queues it) leaves the operator's decision to the operator.
      submitted_at: merchant.submittedAt?.toISOString(),
    },
  });
}

/**
 * Back to IN_PROGRESS with `requirements`; `merchant.information_requested`; the ISV and/or the
 * merchant are told, per `settings.notifications.information_requested` (the merchant with a
 * fresh link to the self-service portal).
 */
export async function requestInformation(tx: DbOrTx, merchant: MerchantRow, findings: Finding[], decider: Decider) {
  const isv = await getAccount(tx, merchant.isvAccountId);
  const moved = await moveMerchant(tx, merchant.id, "requestInformation", {
    requirements: askedFor(findings),
    underwriting: {
      outcome: "request_information",
      decided_by: decider.by,
      reason: decider.reason ?? null,
      decided_at: clock.now().toISOString(),
    },
  });
  await recordMerchantEvent(tx, "merchant.information_requested", moved, { isv });
  await notifyInformationRequested(tx, isv, moved, findings);
  return moved;
}

async function notifyInformationRequested(tx: DbOrTx, isv: AccountRow, merchant: MerchantRow, findings: Finding[]) {
  const target = settingsOf(isv).notifications.information_requested;
  const brand = brandOf(isv);
  const app = merchant.application as LooseJson;
  const locale = merchantLocale(merchant);
  if (target === "merchant" || target === "both") {
    const to = app.main_contact_person?.email ?? app.owner_one?.email;
    if (to) {
      // A fresh link into the portal, returning where the last link returned.
      const [last] = await tx
        .select()
        .from(onboardingLinks)
        .where(eq(onboardingLinks.merchantId, merchant.id))
        .orderBy(desc(onboardingLinks.createdAt))
        .limit(1);
      const { url } = await insertOnboardingLink(tx, isv, merchant.id, {
        returnUrl: last?.returnUrl ?? null,
        refreshUrl: last?.refreshUrl ?? null,
        state: last?.state ?? null,
        allowSkipDeviceSelection: last?.allowSkipDeviceSelection ?? null,
        continuesLinkId: last?.id ?? null,
      });
      const message = informationRequestedForMerchant({
        brand,
        locale,
        findings,
        portalUrl: url,
        names: requestNames(merchant.application),
      });
      await queueEmail(tx, {
        accountId: isv.id,
        merchantId: merchant.id,
        kind: "information_requested.merchant",
        to,
        locale,
        ...message,
      });
    }
  }
  if (target === "isv" || target === "both") {
    let to = brand.support?.email;
    if (!to)
      [{ email: to } = { email: undefined }] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.accountId, isv.id))
        .orderBy(users.createdAt)
        .limit(1);
    if (to) {
      const message = informationRequestedForIsv({
        brand,
        locale: "en",
        findings,
        merchantName: app.legal_business_name ?? merchant.id,
        merchantId: merchant.id,
      });
      await queueEmail(tx, {
        accountId: isv.id,
        merchantId: merchant.id,
        kind: "information_requested.isv",
        to,
        locale: "en",
        ...message,
      });
    }
  }
}
