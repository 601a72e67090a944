import type { CheckedCard } from "../payments/card-check";
import type { DisputeReason } from "../schemas/disputes";
import type { CardEntryMethod, Funding } from "../schemas/payment-values";

/** A card class: Visa/Mastercard/Discover credit or debit, or American Express. */
export type CardClass = "vmd_credit" | "vmd_debit" | "amex";
/** A rate in basis points and a fixed amount in cents. */
export type Interchange = { bps: number; fixed: number };

// What the platform needs from a card processor (docs/reference.md section 10). The sandbox simulator is
// the only implementation today; a real gateway is another implementation of this interface.

export type Authorization = { approved: true; reference: string } | { approved: false; reason: string };
export type RefundResult = { ok: true; reference: string } | { ok: false; reason: string };
/**
 * What the processor did with the call made under an idempotency key (the platform's `pcl_` id):
 * `none` when no call with that key reached it.
 */
export type CallLookup =
  | { found: true; approved: true; reference: string }
  | { found: true; approved: false; reason: string }
  | { found: false };

/**
 * Every call that moves money carries the platform's idempotency key (its `processor_calls` row):
 * the processor does the work once per key and answers a repeated call with the first answer, so a
 * call retried after a timeout or a crash never charges or refunds twice (docs/reference.md
 * section 10, "Calls to the processor").
 */
interface KeyedCalls {
  /** What the call made under this key did, asked by the recovery job. */
  lookup(idempotencyKey: string): Promise<CallLookup>;
  /** Voids what the authorization or debit made under this key did (a technical cancel by the platform's reference). */
  cancel(idempotencyKey: string): Promise<void>;
}

export interface PaymentProcessor extends KeyedCalls {
  readonly name: string;
  /**
   * Takes a checked card and returns what the processor keeps to charge it later (its vault
   * reference) and the card's funding. The platform never stores the number or the CVC.
   */
  vault(card: CheckedCard): Promise<{ funding: Funding; vault: Record<string, unknown> }>;
  authorize(input: {
    vault: Record<string, unknown>;
    amount: number;
    currency: "usd";
    gatewayMerchantId: string;
    entryMethod: CardEntryMethod;
    idempotencyKey: string;
  }): Promise<Authorization>;
  refund(input: { reference: string; amount: number; idempotencyKey: string }): Promise<RefundResult>;
  /**
   * Of these settled charges, the ones whose customers disputed them with their card's bank, with the
   * network's reason (docs/reference.md section 16). A real gateway reports disputes as they come.
   */
  disputes(references: string[]): Promise<{ reference: string; reason: DisputeReason }[]>;
  /**
   * The interchange the card's bank takes (docs/reference.md section 19): a rate in basis points and
   * a fixed amount in cents, by card class and whether the card was present. A real gateway answers
   * its own table.
   */
  interchange(card: { cardClass: CardClass; present: boolean }): Interchange;
}

/** A bank account to debit (ACH). The platform hands the account number to the processor's vault and keeps only its last four. */
export type BankAccountInput = {
  routingNumber: string;
  accountNumber: string;
  accountType: "checking" | "savings";
  holderName: string;
};

// What the platform needs from an ACH processor (docs/reference.md section 13): debits authorized at once
// and settled like cards; the customer's bank may send a debit back after settlement (a return).
export interface AchProcessor extends KeyedCalls {
  readonly name: string;
  vault(account: BankAccountInput): Promise<{ vault: Record<string, unknown> }>;
  debit(input: {
    vault: Record<string, unknown>;
    amount: number;
    currency: "usd";
    gatewayMerchantId: string;
    idempotencyKey: string;
  }): Promise<Authorization>;
  /** Of these settled debits, the ones the customers' banks returned, with the reason. */
  returns(references: string[]): Promise<{ reference: string; reason: string }[]>;
  /** Of these returned debits, the ones whose bank reversed its return (the money comes back). */
  reversals(references: string[]): Promise<string[]>;
  refund(input: { reference: string; amount: number; idempotencyKey: string }): Promise<RefundResult>;
}
