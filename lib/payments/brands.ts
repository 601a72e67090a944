// Card brands as people write them (the API's brand values are lower-case keys).
const names: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  /** Not a card: a bank payment (statements list it beside the card brands). */
  ach: "ACH",
};

export const brandName = (brand: string | null | undefined) =>
  brand ? (names[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1)) : "";
