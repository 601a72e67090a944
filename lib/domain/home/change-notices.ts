import { and, eq, isNull } from "drizzle-orm";

import { asActor } from "../../audit/actor";
import { revokeHomeMadeKeys, revokeHomeSessions } from "../../auth/home-session";
import { signToken, verifyToken } from "../../auth/jwt";
import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { decryptApplication } from "../../crypto/field-encryption";
import { type AccountRow, type MerchantRow, merchants, payoutCards } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { log } from "../../log";
import { businessName, merchantLocale } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import {
  apiKeyCreated,
  bankAccountChanged,
  contactEmailChanging,
  payoutCardAdded,
} from "../../notifications/templates";
import { getAccount } from "../accounts/get-account";
import { brandOf, newBankAccountHoldDaysOf } from "../accounts/isv-facts";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { writeMerchant } from "../merchants/write-merchant";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";
import { payoutSettingsOf, setPayoutSettings } from "../payouts/settings";

// What protects an approved merchant's money when its bank account or contact e-mail changes
// (docs/reference.md section 16): the previous contact and owner one are told by e-mail, each
// notice with a "this wasn't me" link that freezes payouts until an operator releases them.

const REPORT_AUDIENCE = "change_report";
/** A notice's "this wasn't me" link works this long (a merchant may read its mail days later). */
export const REPORT_TTL_SECONDS = 14 * 24 * 3600;

export type ReportedChange = "bank_account" | "contact_email" | "api_key" | "payout_card";

/** The addresses told of a change: the contact as it was and owner one, once each. */
function previousAddresses(merchant: MerchantRow): string[] {
  const app = decryptApplication(merchant.application) as {
    main_contact_person?: { email?: string };
    owner_one?: { email?: string };
  };
  const all = [app.main_contact_person?.email, app.owner_one?.email].filter(
    (e): e is string => typeof e === "string" && e.includes("@"),
  );
  return [...new Map(all.map((e) => [e.trim().toLowerCase(), e.trim()])).values()];
}

async function reportUrl(isv: AccountRow, merchant: MerchantRow, change: ReportedChange) {
  const token = await signToken(
    {
      kind: "change_report",
      merchant_id: merchant.id,
      isv_account_id: merchant.isvAccountId,
      change,
      // When it was issued, to the millisecond: a use or a release ends every link issued before.
      issued_ms: clock.ms(),
    },
    merchant.id,
    REPORT_TTL_SECONDS,
    REPORT_AUDIENCE,
  );
  return `${hostedBaseUrl(isv)}/home/report/${token}`;
}

/** In the change's transaction: the e-mails to the previous contact and owner one (`before`: the merchant before the change). */
export async function queueChangeNotices(
  tx: DbOrTx,
  isv: AccountRow,
  before: MerchantRow,
  change:
    | { kind: "bank_account"; last4: string }
    | { kind: "contact_email"; email: string }
    | { kind: "api_key"; last4: string }
    | { kind: "payout_card"; last4: string; brand: string },
) {
  const locale = merchantLocale(before);
  const url = await reportUrl(isv, before, change.kind);
  const brand = brandOf(isv);
  const business = businessName(before) || before.id;
  const message =
    change.kind === "bank_account"
      ? bankAccountChanged({
          brand,
          locale,
          business,
          last4: change.last4,
          days: newBankAccountHoldDaysOf(isv),
          reportUrl: url,
        })
      : change.kind === "api_key"
        ? apiKeyCreated({ brand, locale, business, last4: change.last4, reportUrl: url })
        : change.kind === "payout_card"
          ? payoutCardAdded({
              brand,
              locale,
              business,
              card: change.brand,
              last4: change.last4,
              days: newBankAccountHoldDaysOf(isv),
              reportUrl: url,
            })
          : contactEmailChanging({ brand, locale, business, email: change.email, reportUrl: url });
  for (const to of previousAddresses(before))
    await queueEmail(tx, {
      accountId: before.isvAccountId,
      merchantId: before.id,
      kind: noticeKinds[change.kind],
      to,
      locale,
      ...message,
    });
}

const noticeKinds: Record<ReportedChange, string> = {
  bank_account: "bank_account_changed",
  contact_email: "contact_email_changing",
  api_key: "api_key_created",
  payout_card: "payout_card_added",
};

/** What a "this wasn't me" link names, or null (bad or expired). */
export async function readReportToken(token: string) {
  const claims = await verifyToken(token, REPORT_AUDIENCE);
  if (!claims || claims.kind !== "change_report" || typeof claims.merchant_id !== "string") return null;
  const change: ReportedChange =
    claims.change === "contact_email" || claims.change === "api_key" || claims.change === "payout_card"
      ? claims.change
      : "bank_account";
  const issuedMs = typeof claims.issued_ms === "number" ? claims.issued_ms : 0;
  return { merchantId: claims.merchant_id, isvAccountId: String(claims.isv_account_id), change, issuedMs } as const;
}

/** What a "this wasn't me" link names, and whether it still works (not used, not ended by a release); null for a bad link. */
export async function readReportLink(db: DbOrTx, token: string) {
  const report = await readReportToken(token);
  if (!report) return null;
  const [merchant] = await db
    .select({ changeReportsValidAfter: merchants.changeReportsValidAfter })
    .from(merchants)
    .where(eq(merchants.id, report.merchantId));
  return { ...report, live: Boolean(merchant && reportStillValid(merchant, report.issuedMs)) };
}

/** Whether a link issued at `issuedMs` still works: none issued before its merchant's last use or release of one. */
export function reportStillValid(merchant: Pick<MerchantRow, "changeReportsValidAfter">, issuedMs: number) {
  return !merchant.changeReportsValidAfter || issuedMs > merchant.changeReportsValidAfter.getTime();
}

/**
 * "This wasn't me": the merchant's payouts not sent yet are frozen (`payouts_frozen`, until an
 * operator releases them), a contact e-mail waiting for confirmation is dropped, every home session
 * ends, and the ISV hears of it (`merchant.payouts_frozen`). Answers the merchant, or null for a bad
 * link. Single use: a use ends every link issued before it (this one too), and so does the
 * operator's release, so an old notice never freezes the payouts again.
 */
export async function reportChange(db: Db, token: string, clientAddress: string | null = null) {
  const report = await readReportToken(token);
  if (!report) return null;
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, report.merchantId)).for("update");
    if (!merchant || merchant.isvAccountId !== report.isvAccountId) return null;
    if (!reportStillValid(merchant, report.issuedMs)) return null;
    const now = clock.now();
    if ((await payoutSettingsOf(tx, merchant.id)).frozenAt)
      return writeMerchant(tx, merchant.id, { changeReportsValidAfter: now });
    await setPayoutSettings(tx, { id: merchant.id, recipient: "merchant" }, { frozenAt: now });
    const frozen = await writeMerchant(tx, merchant.id, {
      changeReportsValidAfter: now,
      pendingContactEmail: null,
      updatedAt: clock.now(),
    });
    await reconsiderPayouts(tx, frozen);
    // A debit card for instant payouts is a place money goes: removed (the merchant adds it again).
    await tx
      .update(payoutCards)
      .set({ removedAt: now })
      .where(and(eq(payoutCards.merchantId, merchant.id), isNull(payoutCards.removedAt)));
    await revokeHomeSessions(tx, merchant.id, "reported");
    await revokeHomeMadeKeys(tx, merchant.id);
    const isv = await getAccount(tx, merchant.isvAccountId);
    // Whoever holds the notice's link speaks for the merchant here (audited as such).
    await asActor({ type: "merchant", id: merchant.id, via: "change_notice", clientAddress }, () =>
      recordMerchantEvent(tx, "merchant.payouts_frozen", frozen, { isv, fields: [`reported.${report.change}`] }),
    );
    log.warn(
      { merchant_id: merchant.id, change: report.change },
      "a change was reported as not the merchant's: payouts frozen",
    );
    return frozen;
  });
}
