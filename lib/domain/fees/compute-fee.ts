import { type Cents, feeToCentiCents, includedSurcharge, percentToPpm, ppmToBps, splitHalfUp } from "../../money";
import { must } from "../../must";
import type { CardClass } from "../../processors/processor";
import { type FeeLine } from "../../schemas/charges";
// The fee engine (docs/reference.md section 13): pure functions from a charge and the merchant's pricing
// to its processing fee, on integers only (cents, parts per million, hundredths of a cent). Each
// charge's fee is rounded half up once; the lines of a fee add up to it exactly.
import type { CardModel, PricingModel } from "../../schemas/vocabulary";

export type { CardClass };
export type Tier = "qualified" | "mid_qualified" | "non_qualified";

export type { FeeLine };
export type FeeResult = { model: PricingModel; fee: Cents; lines: FeeLine[] };

export type ChargeFacts = {
  amount: Cents;
  cardClass: CardClass;
  /** Read by a terminal (CHIP, SWIPE) rather than typed (MANUAL). */
  present: boolean;
  /** Keyed with a billing postal code (tiered: mid-qualified rather than non-qualified). */
  keyedWithPostalCode?: boolean;
};

type Options = Record<string, string | undefined>;
type Part = { type: FeeLine["type"]; ppm: number; centiCents: number; description: string };

/** Read by a terminal (CHIP, SWIPE...) rather than typed (MANUAL): a card present. */
export const isCardPresent = (entryMethod: string) => entryMethod !== "MANUAL";

export function cardClassOf(brand: string | null | undefined, funding: string | null | undefined): CardClass {
  if (brand === "amex") return "amex";
  return funding === "debit" ? "vmd_debit" : "vmd_credit";
}

const given = (v: string | undefined): v is string => v !== undefined && v !== "";
const rate = (options: Options, key: string) => {
  const value = options[key];
  return given(value) ? percentToPpm(value) : 0;
};
const fixedOf = (options: Options, key: string) => {
  const value = options[key];
  return given(value) ? feeToCentiCents(value) : 0;
};
const classWords: Record<CardClass, string> = {
  vmd_credit: "Visa, Mastercard, Discover credit",
  vmd_debit: "Visa, Mastercard, Discover debit",
  amex: "American Express",
};

/** The tier of a tiered-pricing charge: present cards qualify; keyed with a postal code, mid-qualified; else non-qualified. */
export const tierOf = (facts: ChargeFacts): Tier =>
  facts.present ? "qualified" : facts.keyedWithPostalCode ? "mid_qualified" : "non_qualified";

/** The parts (rate and fixed fee) of a card charge under one pricing model, before rounding. */
function cardParts(model: CardModel, options: Options, facts: ChargeFacts): Part[] {
  const k = facts.cardClass;
  switch (model) {
    case "flat_rate": {
      // The class's own fields when set, else the model's rate_percent and fee_fixed.
      const ppm = given(options[`${k}_rate_percent`])
        ? rate(options, `${k}_rate_percent`)
        : rate(options, "rate_percent");
      const fixed = given(options[`${k}_fee_fixed`])
        ? fixedOf(options, `${k}_fee_fixed`)
        : fixedOf(options, "fee_fixed");
      return [{ type: "processing", ppm, centiCents: fixed, description: `Flat rate, ${classWords[k]}` }];
    }
    case "two_tiered": {
      const family = k === "amex" ? "amex" : "vmd";
      const where = facts.present ? "cp" : "cnp";
      return [
        {
          type: "processing",
          ppm: rate(options, `${family}_${where}_rate_percent`),
          centiCents: fixedOf(options, `${family}_${where}_fee_fixed`),
          description: `Two-tiered, ${family === "amex" ? "American Express" : "Visa, Mastercard, Discover"}, card ${facts.present ? "present" : "not present"}`,
        },
      ];
    }
    case "tiered": {
      const tier = tierOf(facts);
      const short = tier === "qualified" ? "qual" : tier === "mid_qualified" ? "midq" : "nonq";
      const family = k === "amex" ? "amex" : "vmd";
      const kind = k === "vmd_debit" ? "debit" : "credit";
      const rateKey = `${family}_${short}_${kind}_rate_percent`;
      const fixedKey = `${family}_${short}_${kind}_fee_fixed`;
      // Legacy qualified_* / mid_qualified_* / non_qualified_* when the class's fields are empty.
      const useLegacy = !given(options[rateKey]);
      return [
        {
          type: "processing",
          ppm: useLegacy ? rate(options, `${tier}_rate_percent`) : rate(options, rateKey),
          centiCents: useLegacy ? fixedOf(options, `${tier}_fee_fixed`) : fixedOf(options, fixedKey),
          description: `Tiered, ${tier.replace("_", "-")}, ${classWords[k]}`,
        },
      ];
    }
    case "pass_through_ic": {
      const prefix = k === "amex" ? "amex" : k;
      return [
        {
          type: "interchange",
          ppm: rate(options, `${prefix}_discount_percent`),
          centiCents: fixedOf(options, `${prefix}_fee_fixed`),
          description: `Interchange, ${classWords[k]}`,
        },
        {
          type: "markup",
          ppm: rate(options, "processor_markup_percent"),
          centiCents: fixedOf(options, "transaction_fee_fixed"),
          description: "Processor markup",
        },
      ];
    }
    case "cash_discount":
      throw new Error("cash_discount has no parts: see cashDiscountFee");
  }
}

/** Rounds the sum of the parts once, half up; the lines take their shares, the last one the remainder. */
function fromParts(model: PricingModel, amount: Cents, parts: Part[]): FeeResult {
  const { total: fee, shares } = splitHalfUp(
    parts.map((p) => BigInt(amount) * BigInt(p.ppm) + BigInt(p.centiCents) * 10_000n),
    1_000_000n,
  );
  const lines = parts.map((p, i) => ({
    type: p.type,
    model,
    rate_bps: Number(ppmToBps(p.ppm)),
    fixed: p.centiCents / 100,
    amount: must(shares[i], "a share for each part"),
    description: p.description,
  }));
  return { model, fee, lines };
}

/** cash_discount: the card price already carries the adjustment r: fee = round(A × r / (100 + r)). */
function cashDiscountFee(options: Options, amount: Cents): FeeResult {
  const ppm = rate(options, "advantage_rate");
  const fee = includedSurcharge(amount, ppm);
  return {
    model: "cash_discount",
    fee,
    lines: [
      {
        type: "processing",
        model: "cash_discount",
        rate_bps: Number(ppmToBps(ppm)),
        fixed: 0,
        amount: fee,
        description: `Cash discount, ${options.advantage_rate} % included in the card price`,
      },
    ],
  };
}

/** The fee of a card charge under `model` with these options (the merchant's pricing for that model). */
export function cardFee(model: CardModel, options: Options, facts: ChargeFacts): FeeResult {
  if (model === "cash_discount") return cashDiscountFee(options, facts.amount);
  return fromParts(model, facts.amount, cardParts(model, options, facts));
}

/** The fee of an ACH charge: A × txn_fee_percent + txn_fee_fixed. */
export function achFee(options: Options, amount: Cents): FeeResult {
  return fromParts("ach", amount, [
    {
      type: "processing",
      ppm: rate(options, "txn_fee_percent"),
      centiCents: fixedOf(options, "txn_fee_fixed"),
      description: "ACH transaction",
    },
  ]);
}
