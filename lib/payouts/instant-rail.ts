import { env } from "../env";

// The instant payout rail (docs/reference.md section 20): RTP or FedNow credit to the merchant's bank
// account, when its bank is reachable. The sandbox decides by magic values: the routing numbers in
// SANDBOX_RTP_ROUTING are reachable (the example application's 021000021 among them), every other is
// not; a credit to the account number 000666666660 is refused at sending. `push_to_card` credits the
// merchant's debit card through the card networks (Visa Direct, Mastercard Send): in the sandbox every
// debit card is reached, and a push to 4000000000006660 is refused at sending. Production has no
// instant rail yet: no bank or card is reachable, so instant payouts are unavailable (said in the quote).

export const SANDBOX_RTP_ROUTING = ["021000021", "011000015", "026009593", "121000248"] as const;
/** The sandbox's account that the rail refuses at sending (the money goes back, or falls back to standard). */
export const SANDBOX_RTP_REFUSED_ACCOUNT = "000666666660";

export type RailAnswer = { status: "sent" } | { status: "refused"; reason: string };

export interface InstantRail {
  /** Whether the bank with this routing number is reachable by RTP or FedNow. */
  reachable(routingNumber: string | null | undefined): boolean;
  /** The rail's answer to a credit of `amount` cents (its reference the payout's id, the idempotency key). */
  send(input: { reference: string; amount: number; accountNumber: string | null }): Promise<RailAnswer>;
  /** Whether debit cards can be credited (push to card) at all. */
  readonly pushesToCards: boolean;
  /** The card networks' answer to a push of `amount` cents to a vaulted debit card (its reference the payout's id). */
  pushToCard(input: { reference: string; amount: number; vault: Record<string, unknown> | null }): Promise<RailAnswer>;
}

const sandboxRail: InstantRail = {
  reachable: (routing) => (SANDBOX_RTP_ROUTING as readonly string[]).includes(routing ?? ""),
  async send({ accountNumber }) {
    if (accountNumber === null) return { status: "refused", reason: "no bank account to credit" };
    if (accountNumber === SANDBOX_RTP_REFUSED_ACCOUNT)
      return { status: "refused", reason: "the receiving bank did not accept an instant credit to this account" };
    return { status: "sent" };
  },
  pushesToCards: true,
  async pushToCard({ vault }) {
    if (vault === null) return { status: "refused", reason: "the debit card was removed before the payout was sent" };
    if (vault.push_refused === true)
      return { status: "refused", reason: "the card's bank did not accept an instant payment to this card" };
    return { status: "sent" };
  },
};

const noRail: InstantRail = {
  reachable: () => false,
  send: () => Promise.reject(new Error("no instant payout rail is configured")),
  pushesToCards: false,
  pushToCard: () => Promise.reject(new Error("no push-to-card rail is configured")),
};

export const instantRail = (): InstantRail => (env.APP_ENV === "sandbox" ? sandboxRail : noRail);
