import { eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptApplication } from "../../crypto/field-encryption";
import { rowsOf } from "../../db/client";
import {
  accounts,
  type MerchantPayoutRow,
  type MerchantRow,
  type PayoutCardRow,
  type PayoutRow,
  payouts,
} from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { drawableOf } from "../../ledger/payout-draws";
import { postInstantPayoutFee } from "../../ledger/payout-movements";
import { log } from "../../log";
import { formatCents } from "../../money";
import { must } from "../../must";
import { isoDay } from "../../payouts/business-days";
import { instantFee, largestInstant } from "../../payouts/instant-fee";
import { instantRail } from "../../payouts/instant-rail";
import { type InstantPayoutRail } from "../../schemas/instant-payouts";
import { serializePayoutCard } from "../../serializers/payout-card";
import { costProfileOf, settingsOf } from "../accounts/isv-facts";
import { lockMerchant } from "../merchants/lock-merchant";
import { assertCanTakePayments, findScopedMerchant, type Scope } from "../scope";
import { activePayoutCard, payoutCardById, payoutCardState } from "./payout-card";
import { insertPayout } from "./payout-for-settlement";
import { heldReasonOf } from "./rules";
import { type PayoutSettings, payoutSettingsOf } from "./settings";
import { movePayouts, payoutEvent } from "./status";

// Instant payouts (docs/reference.md section 20): where the ISV enables them, to the merchant's bank
// account by RTP or FedNow when its bank is reachable. The fee (the cost profile's
// `instant_payout_bps` plus the ISV's markup) leaves `available` when the payout is made, besides its
// amount; the rail is called when it is sent (outside any transaction, the payout's id its
// reference); a refusal gives the fee back and the money back to `available` (or, by the ISV's
// `instant_payout_fallback: standard`, sends it as a standard payout at once).

const DAY_MS = 86_400_000;

/** Why no instant payout can be made now (the home says it in the reader's words). */
export type InstantUnavailable =
  | "not_enabled"
  | "not_approved"
  | "held"
  | "bank_unreachable"
  | "no_card"
  | "card_cooling"
  | "card_expired"
  | "limit_reached"
  | "nothing_available";
const unavailableWords: Record<Exclude<InstantUnavailable, "held" | "limit_reached" | "card_cooling">, string> = {
  not_enabled: "Instant payouts are not turned on by your software provider",
  not_approved: "The merchant cannot take payments",
  bank_unreachable:
    "The bank account's bank cannot receive instant payments (RTP or FedNow), and no debit card is added for instant payouts",
  no_card: "No debit card is added for instant payouts",
  card_expired: "The debit card for instant payouts has expired: add a new one",
  nothing_available: "Nothing is available to pay out",
};

/** The routing number of the merchant's bank account, and whether the rail reaches its bank. */
export function instantEligible(merchant: Pick<MerchantRow, "application">) {
  const bank = decryptApplication(merchant.application).bank_account as { routing_number?: string } | undefined;
  return instantRail().reachable(bank?.routing_number);
}

type Facts = {
  merchant: MerchantRow;
  settings: PayoutSettings;
  isv: typeof accounts.$inferSelect;
  card: PayoutCardRow | null;
};

/**
 * The rails that reach the merchant now (`rtp` first: the bank account), and the rail of a payout
 * (`asked`, or the first that reaches it), or why none does.
 */
function railsOf(facts: Pick<Facts, "merchant" | "card">, asked?: InstantPayoutRail) {
  const cardState = facts.card && instantRail().pushesToCards ? payoutCardState(facts.card) : null;
  const rails: InstantPayoutRail[] = [
    ...(instantEligible(facts.merchant) ? (["rtp"] as const) : []),
    ...(cardState === "usable" ? (["push_to_card"] as const) : []),
  ];
  const rail = asked ? (rails.includes(asked) ? asked : null) : (rails[0] ?? null);
  const why: InstantUnavailable | null =
    rail !== null
      ? null
      : asked === "rtp"
        ? "bank_unreachable"
        : cardState === "cooling"
          ? "card_cooling"
          : cardState === "expired"
            ? "card_expired"
            : asked === "push_to_card"
              ? "no_card"
              : "bank_unreachable";
  return { rails, rail, why };
}

/** What an instant payout of the merchant may be now (the quote's figures), in the caller's transaction or not. */
async function quoteOf(db: DbOrTx, facts: Facts, asked?: number, askedRail?: InstantPayoutRail) {
  const isvSettings = settingsOf(facts.isv);
  const costBps = costProfileOf(facts.isv).instant_payout_bps;
  const bps = costBps + isvSettings.instant_payout_markup_bps;
  const dayStart = new Date(Math.floor(clock.ms() / DAY_MS) * DAY_MS);
  const [used] = rowsOf<{ sum: string | number | null }>(
    await db.execute(sql`select coalesce(sum(amount), 0) as sum from ${payouts}
      where merchant_id = ${facts.merchant.id} and method = 'instant' and status <> 'failed' and created_at >= ${dayStart}`),
  );
  const limitLeft = Math.max(0, isvSettings.instant_payout_daily_limit - Number(used?.sum ?? 0));
  const drawable = await drawableOf(db, facts.merchant.id);
  const held = heldReasonOf(facts.merchant, facts.settings);
  const { rails, rail, why } = railsOf(facts, askedRail);
  const code: InstantUnavailable | null = !isvSettings.instant_payouts_enabled
    ? "not_enabled"
    : facts.merchant.status !== "APPROVED" || facts.merchant.deactivated
      ? "not_approved"
      : held
        ? "held"
        : why
          ? why
          : limitLeft === 0
            ? "limit_reached"
            : largestInstant(drawable, bps) === 0
              ? "nothing_available"
              : null;
  const reason =
    code === null
      ? null
      : code === "held"
        ? `Payouts are on hold (${held})`
        : code === "limit_reached"
          ? `Today's limit of ${formatCents(isvSettings.instant_payout_daily_limit, "en")} in instant payouts is reached`
          : code === "card_cooling"
            ? `Instant payouts reach the debit card added on ${isoDay(facts.card?.createdAt ?? clock.now())} from ${isoDay(facts.card?.usableFrom ?? clock.now())}`
            : unavailableWords[code];
  const available = reason ? 0 : Math.min(limitLeft, largestInstant(drawable, bps));
  const amount = asked ?? available;
  const { fee, markup } = instantFee(amount, costBps, isvSettings.instant_payout_markup_bps);
  return {
    quote: {
      object: "instant_payout_quote" as const,
      merchant_id: facts.merchant.id,
      available,
      amount,
      fee,
      fee_bps: bps,
      rail: reason ? null : rail,
      rails: reason && code !== "limit_reached" && code !== "nothing_available" ? [] : rails,
      payout_card: facts.card ? serializePayoutCard(facts.card) : null,
      limit_remaining_today: limitLeft,
      unavailable_reason: reason,
    },
    markup,
    drawable,
    code,
    costBps,
    markupBps: isvSettings.instant_payout_markup_bps,
  };
}

async function factsOf(db: DbOrTx, merchant: MerchantRow): Promise<Facts> {
  const [isv] = await db.select().from(accounts).where(eq(accounts.id, merchant.isvAccountId));
  if (!isv) throw notFound("account", merchant.isvAccountId);
  return {
    merchant,
    settings: await payoutSettingsOf(db, merchant.id),
    isv,
    card: await activePayoutCard(db, merchant.id),
  };
}

/** The home's instant payout card: the quote with its reason's code and the fee's parts (to show the fee as typed). */
export async function instantFactsOf(db: DbOrTx, merchant: MerchantRow) {
  const facts = await factsOf(db, merchant);
  const { quote, code, costBps, markupBps } = await quoteOf(db, facts);
  return { quote, code, costBps, markupBps, card: facts.card };
}

/** GET /v1/payouts/instant_quote: what an instant payout would be now (of `amount`, or of all it may be). */
export async function instantQuote(
  db: Db,
  scope: Scope,
  query: { merchant_id?: string; amount?: number; rail?: InstantPayoutRail },
) {
  const merchant = await findScopedMerchant(db, scope, query.merchant_id);
  return (await quoteOf(db, await factsOf(db, merchant), query.amount, query.rail)).quote;
}

/**
 * POST /v1/payouts with `method: "instant"`: in one transaction with the merchant's row locked (two
 * at once never draw more than is available), the payout (automatic: false, its rail and fee) and
 * its fee's posting; the worker sends it at once. 400 `instant_payout_unavailable` (the reason in
 * words), 400 `insufficient_funds` above what may be paid out instantly.
 */
export async function createInstantPayout(
  db: Db,
  scope: Scope,
  input: { merchant_id?: string; amount?: number; rail?: InstantPayoutRail },
) {
  const scoped = await findScopedMerchant(db, scope, input.merchant_id);
  return db.transaction(async (tx) => {
    const merchant = await lockMerchant(tx, scoped.id);
    if (!merchant) throw notFound("merchant", scoped.id, "merchant_id");
    assertCanTakePayments(merchant);
    const facts = await factsOf(tx, merchant);
    const { quote, markup } = await quoteOf(tx, facts, input.amount, input.rail);
    if (quote.unavailable_reason)
      throw new AppError(
        "instant_payout_unavailable",
        `No instant payout can be made now: ${quote.unavailable_reason}`,
      );
    if (quote.amount <= 0 || quote.amount > quote.available)
      throw invalid(
        input.amount === undefined ? "merchant_id" : "amount",
        `Available to pay out instantly: ${formatCents(quote.available, "en")} (its fee, ${quote.fee_bps / 100} %, comes out of the balance too); asked for ${formatCents(quote.amount, "en")}`,
        "insufficient_funds",
      );
    const payout = (await insertPayout(
      tx,
      merchant,
      {
        settlementId: null,
        amount: quote.amount,
        automatic: false,
        instant: {
          fee: quote.fee,
          feeMarkup: markup,
          rail: must(quote.rail, "an available quote's rail"),
          card: quote.rail === "push_to_card" ? must(facts.card, "the rail's card") : null,
        },
      },
      facts.settings,
    )) as MerchantPayoutRow;
    await postInstantPayoutFee(tx, payout);
    return payout;
  });
}

/**
 * The rail's answer to an instant payout about to be sent (asked before the sending transaction):
 * RTP to the bank account, or a push to its debit card (refused when the card was removed since).
 */
export async function askRail(
  db: DbOrTx,
  payout: Pick<PayoutRow, "id" | "amount" | "rail" | "payoutCardId">,
  accountNumber: () => Promise<string | null>,
) {
  if (payout.rail === "push_to_card") {
    const card = payout.payoutCardId ? await payoutCardById(db, payout.payoutCardId) : null;
    const vault = card && card.removedAt === null ? card.vault : null;
    return instantRail().pushToCard({ reference: payout.id, amount: payout.amount, vault });
  }
  return instantRail().send({ reference: payout.id, amount: payout.amount, accountNumber: await accountNumber() });
}

/**
 * The rail refused the instant payout at sending, in the sending transaction: it fails
 * (`instant_refused`, no new bank account asked: the account is fine), its fee comes back, its money
 * never left `available`; by the ISV's `instant_payout_fallback: standard`, a standard payout of
 * the amount is made at once. `payout.failed` says why.
 */
export async function refuseInstant(tx: DbOrTx, merchant: MerchantRow, payout: MerchantPayoutRow, why: string) {
  const [failed] = await movePayouts(tx, "refuse", eq(payouts.id, payout.id), { failureCode: "instant_refused" });
  if (!failed) return null;
  await postInstantPayoutFee(tx, payout, true);
  await payoutEvent(tx, "payout.failed", failed);
  log.warn({ payout_id: payout.id, merchant_id: merchant.id, why }, "instant payout refused by the rail");
  const [isv] = await tx.select().from(accounts).where(eq(accounts.id, merchant.isvAccountId));
  if (isv && settingsOf(isv).instant_payout_fallback === "standard")
    await insertPayout(
      tx,
      merchant,
      { settlementId: null, amount: payout.amount, automatic: false },
      await payoutSettingsOf(tx, merchant.id),
    );
  return failed;
}
