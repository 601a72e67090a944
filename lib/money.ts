// Money, once (docs/reference.md sections 3, 13): amounts are integer cents; rates and fixed fees come
// from the pricing strings of `default_capabilities` ("2.90" percent, "0.30" dollars, up to four
// decimals) and are parsed here, exactly, into integers. No floating point touches money.
// Browser-safe: the wizard may format with it too.

/** An amount in integer cents (USD). */
export type Cents = number;
/** A percentage rate in parts per million of the amount ("2.9125" % → 29 125 ppm; 1 basis point = 100 ppm). */
export type RatePpm = number;
/** A fixed fee in hundredths of a cent ("0.0525" dollars → 525): the pricing strings carry four decimals. */
export type FeeCentiCents = number;

const DECIMAL = /^(\d{1,10})(?:\.(\d{1,4}))?$/;

/** "12.3456" with `scale` 4 → 123456: a decimal string as an exact integer of 10^-scale units. */
export function parseScaled(value: string, scale: number): number {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(value)}`);
  const [, whole, fraction = ""] = match;
  if (fraction.length > scale) throw new RangeError(`${value} has more than ${scale} decimals`);
  const units = Number(whole) * 10 ** scale + Number(fraction.padEnd(scale, "0") || "0");
  if (!Number.isSafeInteger(units)) throw new RangeError(`${value} is too large`);
  return units;
}

/** Dollars as typed ("35.5", "2500", "0.30") → cents. At most two decimals. */
export const dollarsToCents = (value: string): Cents => parseScaled(value, 2);

/**
 * An amount a person typed in a form → cents; null if it is not one. A dollar sign and spaces are
 * left out ("$9.50"); commas between groups of three digits are thousands ("18,000", "1,234.56");
 * a comma before one or two final digits is a decimal comma ("9,50", "12,5"). Anything else, or more
 * than two decimals, is not an amount.
 */
export function typedDollarsToCents(value: string): Cents | null {
  const text = value
    .trim()
    .replace(/^\$\s*/, "")
    .replace(/\s+/g, "");
  const normal = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)
    ? text.replace(/,/g, "")
    : text.replace(/^(\d+),(\d{1,2})$/, "$1.$2");
  try {
    return dollarsToCents(normal);
  } catch {
    return null;
  }
}

/**
 * The reference types `fees.monthly.*` as JSON numbers of dollars: converted to cents here, once,
 * at the edge (half up on the third decimal), so nothing downstream holds a float.
 */
export function dollarNumberToCents(value: number): Cents {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a non-negative amount: ${value}`);
  return Number(divideHalfUp(BigInt(parseScaled(value.toFixed(4), 4)), 100n));
}

/** A percentage string ("2.90", "0.0525") → parts per million. At most four decimals, at most 100. */
export function percentToPpm(value: string): RatePpm {
  const ppm = parseScaled(value, 4);
  if (ppm > 1_000_000) throw new RangeError(`${value} % is more than 100 %`);
  return ppm;
}

/** A fixed-fee string in dollars ("0.30", "0.0525") → hundredths of a cent. */
export const feeToCentiCents = (value: string): FeeCentiCents => parseScaled(value, 4);

/** Basis points of a rate, as a decimal string ("2.9125" % → "291.25"). */
export function ppmToBps(ppm: RatePpm): string {
  const whole = Math.trunc(ppm / 100);
  const rest = ppm % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}

/** n / d rounded half up, for non-negative integers, exact (BigInt: products of large cents and rates pass 2^53). */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n || d <= 0n) throw new RangeError("divideHalfUp takes a non-negative numerator and a positive divisor");
  return (n * 2n + d) / (2n * d);
}

/**
 * Parts of one sum, each exact in 1/`unit` of a cent, rounded once: the total half up, each part its
 * own share half up, the last part the remainder, so the parts add up to the total exactly (a fee's
 * or a cost's lines).
 */
export function splitHalfUp(exact: readonly bigint[], unit: bigint): { total: Cents; shares: Cents[] } {
  const total = Number(
    divideHalfUp(
      exact.reduce((a, b) => a + b, 0n),
      unit,
    ),
  );
  let left = total;
  const shares = exact.map((part, i) => {
    const share = i === exact.length - 1 ? left : Number(divideHalfUp(part, unit));
    left -= share;
    return share;
  });
  return { total, shares };
}

/**
 * A fee of `amount` at `rate` plus `fixed`, rounded half up once, to the cent:
 * round((amount × rate / 10^6) + fixed / 100).
 */
export function percentOf(amount: Cents, rate: RatePpm, fixed: FeeCentiCents = 0): Cents {
  assertCents(amount);
  // In millionths of a cent: amount × rate, plus the fixed fee's hundredths of a cent × 10^4.
  const micro = BigInt(amount) * BigInt(rate) + BigInt(fixed) * 10_000n;
  return Number(divideHalfUp(micro, 1_000_000n));
}

/** A cash-discount fee: the card price already holds the adjustment r, so fee = round(A × r / (100 + r)). */
export function includedSurcharge(amount: Cents, rate: RatePpm): Cents {
  assertCents(amount);
  return Number(divideHalfUp(BigInt(amount) * BigInt(rate), 1_000_000n + BigInt(rate)));
}

export function assertCents(value: number): asserts value is Cents {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative integer of cents: ${value}`);
}

/** Pricing options as parsed integers: `_percent`/`_rate` fields are rates, the rest fixed fees (lib/schemas/capabilities.ts). */
export type ParsedPricing = Record<string, { rate: RatePpm } | { fixed: FeeCentiCents }>;

export function parsePricingOptions(options: Record<string, string | undefined>): ParsedPricing {
  const out: ParsedPricing = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || key === "advantage_rate") continue;
    out[key] = /(_percent|_rate)$/.test(key) ? { rate: percentToPpm(value) } : { fixed: feeToCentiCents(value) };
  }
  return out;
}

/** One formatter per locale and currency: making one costs far more than formatting with it. */
const currencyFormats = new Map<string, Intl.NumberFormat>();
const currencyFormat = (locale: string, currency: string) => {
  const key = `${locale}|${currency}`;
  let format = currencyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2 });
    if (currencyFormats.size < 100) currencyFormats.set(key, format);
  }
  return format;
};

/** Cents as the reader's currency text, e.g. formatCents(123456, "en") → "$1,234.56". */
export function formatCents(amount: Cents, locale: string, currency = "USD"): string {
  const negative = amount < 0;
  const abs = Math.abs(amount);
  // Intl formats a number; cents / 100 with two decimals is exact for every safe integer of cents.
  const text = currencyFormat(locale, currency).format(Math.trunc(abs / 100) + (abs % 100) / 100);
  return negative ? `-${text}` : text;
}

/** A chart axis's short money ("$1.2K"): for ticks only, never for an amount a person reads as exact. */
export function formatCentsCompact(amount: Cents, locale: string, currency = "USD"): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(amount / 100);
}
