import { and, eq, gt, isNull } from "drizzle-orm";

import { asActor } from "../../audit/actor";
import { assertFreshSignIn } from "../../auth/fresh-sign-in";
import type { Role } from "../../auth/permissions";
import type { Principal } from "../../auth/principal";
import { digestSecret } from "../../auth/secrets";
import { platformBranding } from "../../branding/platform";
import { clock } from "../../clock";
import { accountChangeReports, type AccountRow, accounts, users } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { createId, randomBase62 } from "../../ids";
import { log } from "../../log";
import { queueEmail } from "../../notifications/send-email";
import { accountBankAccountChanged } from "../../notifications/templates";
import { recordAudit } from "../audit/record-audit";
import { payoutSettingsOf, setPayoutSettings } from "../payouts/settings";

// Who may change an ISV's own payout bank account, and what happens then (docs/reference.md section
// 19): never an API key; a dashboard user only within 15 minutes of signing in with the password;
// every user of the ISV e-mailed a single-use "this wasn't us" link that freezes its payouts until
// an operator releases them (which ends every link still open).

/** How long a "this wasn't us" link works. */
export const ACCOUNT_REPORT_TTL_MS = 14 * 24 * 3600_000;

/** Who asks for the change: an API key, or a dashboard user and when it signed in (the token's `iat`, Unix seconds). */
export type PayoutAccountCaller =
  { kind: "api_key" } | { kind: "user"; userId: string; signedInAt: number | null; role: Role } | { kind: "operator" };

/** The caller of an API request, as the rule above needs it. */
export function payoutAccountCallerOf(principal: Principal): PayoutAccountCaller {
  return principal.kind === "user"
    ? { kind: "user", userId: principal.userId, signedInAt: principal.signedInAt, role: principal.role }
    : { kind: "api_key" };
}

/** Refuses a change of the payout bank account by an API key (403 `permission_denied`) or a stale sign-in (403 `reauthentication_required`). */
export function assertMayChangePayoutAccount(caller: PayoutAccountCaller, now = clock.now()) {
  if (caller.kind === "operator") return;
  if (caller.kind === "api_key")
    throw new AppError(
      "permission_denied",
      "The payout bank account cannot be changed with an API key: sign in to the dashboard and change it within 15 minutes of signing in",
      { param: "payout_bank_account" },
    );
  if (caller.role !== "owner")
    throw new AppError(
      "permission_denied",
      `Your role (${caller.role}) cannot change the payout bank account: this needs owner`,
      { param: "payout_bank_account" },
    );
  assertFreshSignIn(caller.signedInAt, "Changing the payout bank account", "payout_bank_account", now);
}

/**
 * In the change's transaction: an audit entry naming the new account, and to every user of the ISV
 * an e-mail with its own single-use "this wasn't us" link (only the token's digest kept).
 */
export async function queueAccountChangeNotices(
  tx: DbOrTx,
  isv: AccountRow,
  change: { last4: string; holdDays: number; changedBy: string | null },
  now = clock.now(),
) {
  await recordAudit(tx, {
    accountId: isv.id,
    action: "account.payout_bank_account_changed",
    resourceId: isv.id,
    fields: [`payout_bank_account.last4:${change.last4}`],
  });
  // Every owner and admin is told (the other roles cannot act on it).
  const team = await tx
    .select()
    .from(users)
    .where(and(eq(users.accountId, isv.id), isNull(users.removedAt)));
  const changedBy = team.find((u) => u.id === change.changedBy)?.email ?? "the platform's operators";
  for (const user of team.filter((u) => u.role === "owner" || u.role === "admin")) {
    const token = randomBase62(43);
    await tx.insert(accountChangeReports).values({
      id: createId("acr"),
      accountId: isv.id,
      userId: user.id,
      tokenDigest: digestSecret(token),
      last4: change.last4,
      expiresAt: new Date(now.getTime() + ACCOUNT_REPORT_TTL_MS),
      createdAt: now,
    });
    const message = accountBankAccountChanged({
      brand: platformBranding,
      locale: "en",
      isv: isv.name,
      changedBy,
      last4: change.last4,
      days: change.holdDays,
      reportUrl: `${env.PUBLIC_BASE_URL}/sign-in/report/${token}`,
    });
    await queueEmail(tx, {
      accountId: isv.id,
      kind: "account_bank_account_changed",
      to: user.email,
      locale: "en",
      ...message,
    });
  }
}

const liveReport = (token: string, now: Date) =>
  and(
    eq(accountChangeReports.tokenDigest, digestSecret(token)),
    isNull(accountChangeReports.usedAt),
    isNull(accountChangeReports.endedAt),
    gt(accountChangeReports.expiresAt, now),
  );

/** What a live "this wasn't us" link names (the ISV's name, the account's last four), or null (unknown, used, ended, expired). */
export async function readAccountReport(db: DbOrTx, token: string, now = clock.now()) {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
  const [report] = await db
    .select({ accountId: accountChangeReports.accountId, last4: accountChangeReports.last4, isv: accounts.name })
    .from(accountChangeReports)
    .innerJoin(accounts, eq(accounts.id, accountChangeReports.accountId))
    .where(liveReport(token, now));
  return report ?? null;
}

/**
 * "This wasn't us": the link is used (once), the ISV's payouts are frozen (no residual is paid until
 * an operator releases them) and audited under the user the link was sent to. Null: a link that is
 * unknown, used, ended by a release or expired (nothing changes).
 */
export async function reportAccountChange(
  db: Db,
  token: string,
  clientAddress: string | null = null,
  now = clock.now(),
) {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
  return db.transaction(async (tx) => {
    const [used] = await tx.update(accountChangeReports).set({ usedAt: now }).where(liveReport(token, now)).returning();
    if (!used) return null;
    const [isv] = await tx.select().from(accounts).where(eq(accounts.id, used.accountId)).for("update");
    if (!isv) return null;
    const owner = { id: isv.id, recipient: "account" as const };
    if (!(await payoutSettingsOf(tx, isv.id)).frozenAt) await setPayoutSettings(tx, owner, { frozenAt: now });
    await asActor({ type: "user", id: used.userId, via: "change_notice", clientAddress }, () =>
      recordAudit(tx, {
        accountId: isv.id,
        action: "account.payouts_frozen",
        resourceId: isv.id,
        fields: [`reported.payout_bank_account.last4:${used.last4}`],
      }),
    );
    log.warn({ account_id: isv.id }, "a change of the ISV's payout bank account was reported: payouts frozen");
    return isv;
  });
}

/**
 * The operator's release (`npm run cli -- isv payouts release <account_id>`): the ISV's payouts are
 * no longer frozen, every "this wasn't us" link still open ends, what waited is sent and the
 * residuals that wait are paid (`resume`: when the bank account is verified and past its hold).
 * False when the payouts were not frozen.
 */
export async function releaseAccountPayouts(
  db: Db,
  accountId: string,
  resume: (tx: DbOrTx, accountId: string) => Promise<unknown>,
  now = clock.now(),
) {
  return db.transaction(async (tx) => {
    const [isv] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!isv || isv.type !== "isv") throw new AppError("resource_missing", `No such ISV account: '${accountId}'`);
    await tx
      .update(accountChangeReports)
      .set({ endedAt: now })
      .where(
        and(
          eq(accountChangeReports.accountId, accountId),
          isNull(accountChangeReports.usedAt),
          isNull(accountChangeReports.endedAt),
        ),
      );
    if (!(await payoutSettingsOf(tx, accountId)).frozenAt) return false;
    await setPayoutSettings(tx, { id: accountId, recipient: "account" }, { frozenAt: null });
    await recordAudit(tx, { accountId, action: "account.payouts_unfrozen", resourceId: accountId });
    await resume(tx, accountId);
    return true;
  });
}
