import { divideHalfUp } from "../money";

// An instant payout's figures (docs/reference.md section 20), pure: the server's quote and the
// home's confirmation compute them the same way.

/** The fee of an instant payout of `amount` cents at `bps`, half up, and the markup's part of it. */
export function instantFee(amount: number, costBps: number, markupBps: number) {
  const fee = Number(divideHalfUp(BigInt(amount) * BigInt(costBps + markupBps), 10_000n));
  const markup = Math.min(fee, Number(divideHalfUp(BigInt(amount) * BigInt(markupBps), 10_000n)));
  return { fee, markup };
}

/** The most that can be paid out instantly from `drawable` at `bps`: its amount plus its fee within it. */
export function largestInstant(drawable: number, bps: number) {
  if (drawable <= 0) return 0;
  const fits = (amount: number) => amount + Number(divideHalfUp(BigInt(amount) * BigInt(bps), 10_000n)) <= drawable;
  // An estimate, then one cent at a time to the largest that fits (the fee's rounding moves it by a few).
  let amount = Math.floor((drawable * 10_000) / (10_000 + bps));
  while (amount > 0 && !fits(amount)) amount -= 1;
  while (fits(amount + 1)) amount += 1;
  return amount;
}
