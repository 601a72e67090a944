import { type Cents, splitHalfUp } from "../../money";
import { must } from "../../must";
import type { CardClass, Interchange } from "../../processors/processor";
import { type CostLine, type CostProfile, defaultCostProfile } from "../../schemas/cost-profile";
import { cardClassOf, isCardPresent } from "./compute-fee";

// What a payment costs the platform (docs/reference.md section 19), for the ISV's eyes only: the
// card's interchange (the processor's table), the network's assessment and the processor's fee; an
// ACH debit's per-item cost. Integers only; each object's costs rounded half up once, its lines
// taking their shares and the last one the remainder (as a fee's lines do).

type Part = { type: CostLine["type"]; bps: number; fixed: Cents; description: string };

const classWords: Record<CardClass, string> = {
  vmd_credit: "Visa, Mastercard, Discover credit",
  vmd_debit: "Visa, Mastercard, Discover debit",
  amex: "American Express",
};

/** Rounds the sum of the parts once (hundredths of a basis point of the amount, half up); lines take their shares. */
function fromParts(amount: Cents, parts: Part[]) {
  // In ten-thousandths of a cent: amount × bps (a basis point is a ten-thousandth) + fixed × 10,000.
  const { total: costs, shares } = splitHalfUp(
    parts.map((p) => BigInt(amount) * BigInt(p.bps) + BigInt(p.fixed) * 10_000n),
    10_000n,
  );
  const lines: CostLine[] = parts.map((p, i) => ({
    type: p.type,
    rate_bps: p.bps,
    fixed: p.fixed,
    amount: must(shares[i], "a share for each part"),
    description: p.description,
  }));
  return { costs, lines };
}

/** A card charge's costs: interchange (by class and presence, from the processor), network assessment, processor fee. */
export function cardCosts(
  amount: Cents,
  card: { cardClass: CardClass; present: boolean },
  interchange: Interchange,
  profile: CostProfile,
) {
  if (amount === 0) return { costs: 0, lines: [] as CostLine[] };
  return fromParts(amount, [
    {
      type: "interchange",
      bps: interchange.bps,
      fixed: interchange.fixed,
      description: `Interchange, ${classWords[card.cardClass]}, ${card.present ? "card present" : "card not present"}`,
    },
    { type: "network", bps: profile.card.network_bps, fixed: 0, description: "Card network assessment" },
    {
      type: "processor",
      bps: profile.card.processor_bps,
      fixed: profile.card.processor_per_item,
      description: "Processor fee",
    },
  ]);
}

/** An ACH debit's cost: the per-item fee. */
export function achCosts(amount: Cents, profile: CostProfile) {
  if (amount === 0) return { costs: 0, lines: [] as CostLine[] };
  return fromParts(amount, [{ type: "ach", bps: 0, fixed: profile.ach.per_item, description: "ACH debit" }]);
}

/** The ISV's margin on an object: what the merchant paid for it less what it cost (may be negative). */
export const marginOf = (fee: Cents, costs: Cents): Cents => fee - costs;

/**
 * A charge's costs and margin at authorization, from the ISV's cost profile (null: the defaults)
 * and the processor's interchange; an unpriced charge (no fee) has a margin of minus its costs.
 */
export function chargeCosts(
  profile: CostProfile | null,
  charge:
    | { method: "ach"; amount: Cents; fee: Cents | null }
    | {
        method: "card";
        amount: Cents;
        fee: Cents | null;
        brand: string | null;
        funding: string | null;
        entryMethod: string;
        /** The processor's interchange table. */
        interchange: (card: { cardClass: CardClass; present: boolean }) => Interchange;
      },
) {
  const costProfile = profile ?? defaultCostProfile;
  let result: { costs: Cents; lines: CostLine[] };
  if (charge.method === "ach") result = achCosts(charge.amount, costProfile);
  else {
    const card = { cardClass: cardClassOf(charge.brand, charge.funding), present: isCardPresent(charge.entryMethod) };
    result = cardCosts(charge.amount, card, charge.interchange(card), costProfile);
  }
  return { costs: result.costs, costDetails: result.lines, margin: marginOf(charge.fee ?? 0, result.costs) };
}
