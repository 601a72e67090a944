// Banks a routing number names, for the few the platform knows (docs/reference.md section 13: the token
// keeps `bank_name` when known). A real deployment would load the Federal Reserve's E-Payments
// Routing Directory; unknown numbers simply have no name.
const names: Record<string, string> = {
  "011000015": "Federal Reserve Bank of Boston",
  "021000021": "JPMorgan Chase Bank",
  "021000089": "Citibank",
  "026009593": "Bank of America",
  "121000248": "Wells Fargo Bank",
  "322271627": "JPMorgan Chase Bank",
};

export const bankNameOf = (routingNumber: string): string | null => names[routingNumber] ?? null;
