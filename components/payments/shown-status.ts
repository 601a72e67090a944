import { awaitsAchClearing } from "@/lib/domain/charges/rules";

type Stored = "AUTHORIZED" | "SETTLED" | "FAILED" | "RETURNED";

/** The words' keys (`dashboard.chargeStatus`) a payment's status is shown with: where it is, and what was refunded. */
export type ShownStatus = { status: Stored | "PROCESSING"; refund: "REFUNDED" | "PARTLY_REFUNDED" | null };

/**
 * A payment's status as the merchant and the ISV read it in the payments lists: a bank debit not yet
 * cleared is "Processing", as the customer's receipt says (it can still come back), and a refund
 * says so beside it ("Settled · Partly refunded": never "Paid" alone beside a refund).
 */
export function shownStatus(charge: {
  status: Stored;
  amountCaptured: number;
  amountRefunded: number;
  paymentMethod: "card" | "ach";
  achClearedAt: Date | null;
}): ShownStatus {
  const refund =
    charge.amountRefunded > 0
      ? charge.amountRefunded >= charge.amountCaptured
        ? "REFUNDED"
        : "PARTLY_REFUNDED"
      : null;
  return { status: awaitsAchClearing(charge) ? "PROCESSING" : charge.status, refund };
}

/** The words: "Settled · Partly refunded". */
export const shownStatusText = (t: (key: string) => string, charge: Parameters<typeof shownStatus>[0]) => {
  const shown = shownStatus(charge);
  return [shown.status, shown.refund]
    .filter((k) => k !== null)
    .map((k) => t(`chargeStatus.${k}`))
    .join(" · ");
};
