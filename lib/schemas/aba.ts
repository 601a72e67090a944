/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaChecksumValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  // The weights 3, 7, 1 repeat over the nine digits.
  const weight = (i: number) => (i % 3 === 0 ? 3 : i % 3 === 1 ? 7 : 1);
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * weight(i), 0);
  return sum % 10 === 0;
}

/** A US bank account number: 4 to 17 digits (the wizard, underwriting, the tokenizer and its frame). */
export const accountNumberPattern = /^\d{4,17}$/;
export const isAccountNumber = (value: string) => accountNumberPattern.test(value);
