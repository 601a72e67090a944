import { z } from "zod";

import { payoutCardSchema } from "./payout-card";

// Instant payouts (docs/reference.md section 20): the ISV's settings, and the quote.

export const instantPayoutFallbacks = ["return", "standard"] as const;
export const instantPayoutRails = ["rtp", "push_to_card"] as const;
export type InstantPayoutRail = (typeof instantPayoutRails)[number];

/** The merchant's default daily limit of instant payouts: $10,000. */
export const DEFAULT_INSTANT_DAILY_LIMIT = 1_000_000;

export const instantPayoutSettingsShape = {
  instant_payouts_enabled: z.boolean().meta({
    description:
      "Whether the ISV's merchants may take instant payouts (the guide: /docs/guide#section-20); default false",
  }),
  instant_payout_markup_bps: z.number().int().min(0).max(1_000).meta({
    description:
      "The ISV's markup on each instant payout, in basis points of its amount, added to the cost profile's `instant_payout_bps`: the ISV's revenue; default 0",
  }),
  instant_payout_fallback: z.enum(instantPayoutFallbacks).meta({
    description:
      "When the rail refuses an instant payout at sending: `return` (default) gives the money and the fee back to the merchant's available balance; `standard` gives the fee back and sends the amount as a standard payout at once",
  }),
  instant_payout_daily_limit: z.number().int().min(100).max(100_000_000).meta({
    description: "Cents of instant payouts a merchant may take per UTC day; default 1,000,000 ($10,000)",
  }),
};

export const instantPayoutSettingsPatchShape = {
  instant_payouts_enabled: instantPayoutSettingsShape.instant_payouts_enabled.optional(),
  instant_payout_markup_bps: instantPayoutSettingsShape.instant_payout_markup_bps.optional(),
  instant_payout_fallback: instantPayoutSettingsShape.instant_payout_fallback.optional(),
  instant_payout_daily_limit: instantPayoutSettingsShape.instant_payout_daily_limit.optional(),
};

export const defaultInstantPayoutSettings = {
  instant_payouts_enabled: false,
  instant_payout_markup_bps: 0,
  instant_payout_fallback: "return" as const,
  instant_payout_daily_limit: DEFAULT_INSTANT_DAILY_LIMIT,
};

export const instantQuoteSchema = z
  .object({
    object: z.literal("instant_payout_quote"),
    merchant_id: z.string(),
    available: z.number().int().meta({
      description:
        "The most that can be paid out instantly now, in cents: what the merchant may draw less the fee, within what is left of today's limit (0 when unavailable)",
    }),
    amount: z.number().int().meta({ description: "The amount quoted: `amount` asked, or `available`" }),
    fee: z.number().int().meta({
      description:
        "The fee for `amount`, in cents (the cost profile's `instant_payout_bps` plus the ISV's `settings.instant_payout_markup_bps`, half up); taken from the balance besides the amount",
    }),
    fee_bps: z.number().int(),
    rail: z.enum(instantPayoutRails).nullable().meta({
      description:
        "The rail of the payout quoted: `rtp` (RTP or FedNow to the bank account) or `push_to_card` (the merchant's debit card); the one asked with `rail`, else `rtp` when the bank is reachable; null when unavailable",
    }),
    rails: z.array(z.enum(instantPayoutRails)).meta({
      description: "Every rail that reaches the merchant now (empty when no instant payout can be made)",
    }),
    payout_card: payoutCardSchema
      .nullable()
      .meta({ description: "The merchant's debit card for `push_to_card` (null: none added)" }),
    limit_remaining_today: z.number().int().meta({ description: "Cents of instant payouts left today (UTC)" }),
    unavailable_reason: z
      .string()
      .nullable()
      .meta({ description: "Why no instant payout can be made now, in words (null when one can)" }),
  })
  .meta({ id: "InstantPayoutQuote" });
