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

export interface PaymentProcessor {
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
  }): Promise<Authorization>;
  refund(input: {
    reference: string;
    amount: number;
  }): Promise<{ ok: true; reference: string } | { ok: false; reason: string }>;
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
export interface AchProcessor {
  readonly name: string;
  vault(account: BankAccountInput): Promise<{ vault: Record<string, unknown> }>;
  debit(input: {
    vault: Record<string, unknown>;
    amount: number;
    currency: "usd";
    gatewayMerchantId: string;
  }): Promise<Authorization>;
  /** Of these settled debits, the ones the customers' banks returned, with the reason. */
  returns(references: string[]): Promise<{ reference: string; reason: string }[]>;
  /** Of these returned debits, the ones whose bank reversed its return (the money comes back). */
  reversals(references: string[]): Promise<string[]>;
  refund(input: {
    reference: string;
    amount: number;
  }): Promise<{ ok: true; reference: string } | { ok: false; reason: string }>;
}
