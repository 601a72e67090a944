import { randomBase62 } from "../ids";
import type { FailureReason, Funding } from "../schemas/payment-values";
import type {
  AchProcessor,
  Authorization,
  CallLookup,
  CardClass,
  Interchange,
  PaymentProcessor,
  RefundResult,
} from "./processor";

// The sandbox simulator (docs/reference.md section 10): every Luhn-valid card approves, except the
// contract's test cards, which decline with their reason; 4000056655665556 is a Visa debit card.
// Its "vault" keeps only the scenario a card stands for, never the card.

export const sandboxTestCards: Record<string, FailureReason> = {
  "4000000000000002": "card_declined",
  "4000000000009995": "insufficient_funds",
  "4000000000009987": "lost_card",
  "4000000000009979": "stolen_card",
  "4000000000000069": "expired_card",
  "4000000000000127": "incorrect_cvc",
  "4000000000000119": "processing_error",
};
/** A Visa debit card that takes payments, but the push-to-card rail refuses a payout to it (docs/reference.md section 20). */
export const SANDBOX_PUSH_REFUSED_CARD = "4000000000006660";
export const sandboxDebitCards = new Set(["4000056655665556", "5200828282828210", SANDBOX_PUSH_REFUSED_CARD]);
/** A card the simulated account updater renews when a saved copy of it has expired (docs/reference.md section 21). */
export const SANDBOX_UPDATER_CARD = "4000000000003063";
/** A prepaid Mastercard: payments are taken as from a credit card; no payout may go to it. */
export const sandboxPrepaidCards = new Set(["5105105105105100"]);
/** The sandbox's disputed card (docs/reference.md section 16): approved, then disputed (`fraudulent`) when its charge settles. */
export const SANDBOX_DISPUTED_CARD = "4000000000000259";
/** A refund of exactly this many cents ($6.66) is declined by the sandbox processor, to test failures. */
export const SANDBOX_FAILING_REFUND_AMOUNT = 666;
/** The approving card a terminal uses when the test does not name one. */
export const DEFAULT_TEST_CARD = "4242424242424242";

/** The sandbox's interchange table (docs/reference.md section 19). */
export function sandboxInterchange(card: { cardClass: CardClass; present: boolean }): Interchange {
  if (card.cardClass === "amex") return { bps: 230, fixed: 10 };
  if (card.cardClass === "vmd_debit") return { bps: 5, fixed: 22 };
  return card.present ? { bps: 151, fixed: 10 } : { bps: 180, fixed: 10 };
}

/**
 * The simulator's memory of the calls it answered, by idempotency key, as a gateway keeps them: a
 * repeated key gets the first answer (even while the first call is still running) and does nothing
 * again. In this process's memory, the most recent 100,000 keys: after a restart the sandbox has
 * forgotten them, and the recovery job's lookup finds nothing (a refund is then made again, which in
 * the simulator moves no money; an authorization is given up).
 */
export function keyedMemory() {
  const answers = new Map<string, Promise<Authorization | RefundResult>>();
  const once = <T extends Authorization | RefundResult>(key: string, call: () => Promise<T>): Promise<T> => {
    const known = answers.get(key);
    if (known) return known as Promise<T>;
    const answer = call();
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
    if (answers.size > 100_000) answers.delete(answers.keys().next().value as string);
    return answer;
  };
  const lookup = async (key: string): Promise<CallLookup> => {
    const known = answers.get(key);
    if (!known) return { found: false };
    const answer = await known;
    if ("approved" in answer)
      return answer.approved
        ? { found: true, approved: true, reference: answer.reference }
        : { found: true, ...answer };
    return answer.ok
      ? { found: true, approved: true, reference: answer.reference }
      : { found: true, approved: false, reason: answer.reason };
  };
  return { once, lookup };
}

const cardCalls = keyedMemory();
const achCalls = keyedMemory();

export const sandboxProcessor: PaymentProcessor = {
  name: "sandbox",
  interchange: sandboxInterchange,
  lookup: cardCalls.lookup,
  // The simulator's authorizations hold no customer's money: voiding one is forgetting nothing.
  async cancel() {},
  async vault(card) {
    const funding: Funding = sandboxDebitCards.has(card.number)
      ? "debit"
      : sandboxPrepaidCards.has(card.number)
        ? "prepaid"
        : "credit";
    return {
      funding,
      vault: {
        processor: "sandbox",
        ref: `sbx_card_${randomBase62(16)}`,
        ...(card.number === SANDBOX_PUSH_REFUSED_CARD ? { push_refused: true } : {}),
        ...(card.number === SANDBOX_UPDATER_CARD ? { account_updater: true } : {}),
        scenario: card.number === SANDBOX_DISPUTED_CARD ? "dispute" : (sandboxTestCards[card.number] ?? "approve"),
      },
    };
  },
  authorize({ vault, idempotencyKey }) {
    return cardCalls.once(idempotencyKey, async (): Promise<Authorization> => {
      const scenario = String(vault.scenario ?? "approve");
      // The simulator's own reference says what the customer will do later (a real gateway reports disputes).
      if (scenario === "dispute") return { approved: true, reference: `sbx_authd_${randomBase62(16)}` };
      if (scenario !== "approve") return { approved: false, reason: scenario };
      return { approved: true, reference: `sbx_auth_${randomBase62(16)}` };
    });
  },
  async disputes(references) {
    return references
      .filter((r) => r.startsWith("sbx_authd_"))
      .map((reference) => ({ reference, reason: "fraudulent" }));
  },
  refund({ amount, idempotencyKey }) {
    return cardCalls.once(idempotencyKey, async (): Promise<RefundResult> => {
      if (amount === SANDBOX_FAILING_REFUND_AMOUNT) return { ok: false, reason: "processor_declined" };
      return { ok: true, reference: `sbx_re_${randomBase62(16)}` };
    });
  },
};

/**
 * The sandbox's bank accounts (docs/reference.md section 13): 000111111116 is declined at once
 * (insufficient_funds); 000222222227 is accepted, then returned by the customer's bank after
 * settlement (insufficient_funds, R01); 000333333335 is returned, then the bank reverses its return
 * (the money comes back); any other account number succeeds.
 */
export const sandboxTestBankAccounts = {
  declined: "000111111116",
  returned: "000222222227",
  returnReversed: "000333333335",
} as const;

export const sandboxAchProcessor: AchProcessor = {
  name: "sandbox_ach",
  lookup: achCalls.lookup,
  async cancel() {},
  async vault(account) {
    const scenarios: Record<string, string> = {
      [sandboxTestBankAccounts.declined]: "insufficient_funds",
      [sandboxTestBankAccounts.returned]: "return",
      [sandboxTestBankAccounts.returnReversed]: "return_reversed",
    };
    const scenario = scenarios[account.accountNumber] ?? "approve";
    return { vault: { processor: "sandbox_ach", ref: `sbx_bank_${randomBase62(16)}`, scenario } };
  },
  debit({ vault, idempotencyKey }) {
    return achCalls.once(idempotencyKey, async (): Promise<Authorization> => {
      const scenario = String(vault.scenario ?? "approve");
      if (scenario === "insufficient_funds") return { approved: false, reason: "insufficient_funds" };
      // The simulator's own reference says what the bank will do later (a real processor reports returns).
      const prefix = scenario === "return" ? "sbx_achr_" : scenario === "return_reversed" ? "sbx_achrr_" : "sbx_ach_";
      return { approved: true, reference: `${prefix}${randomBase62(16)}` };
    });
  },
  async returns(references) {
    return references
      .filter((r) => r.startsWith("sbx_achr_") || r.startsWith("sbx_achrr_"))
      .map((reference) => ({ reference, reason: "insufficient_funds" }));
  },
  async reversals(references) {
    return references.filter((r) => r.startsWith("sbx_achrr_"));
  },
  refund({ amount, idempotencyKey }) {
    return achCalls.once(idempotencyKey, async (): Promise<RefundResult> => {
      if (amount === SANDBOX_FAILING_REFUND_AMOUNT) return { ok: false, reason: "processor_declined" };
      return { ok: true, reference: `sbx_achre_${randomBase62(16)}` };
    });
  },
};
