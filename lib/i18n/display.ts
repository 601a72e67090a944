/** A US phone number stored in E.164 (+14155550123) as people write it, (415) 555-0123; others as they are. */
export function displayPhone(value: string | null | undefined): string {
  if (!value) return "";
  return /^\+1\d{10}$/.test(value) ? `(${value.slice(2, 5)}) ${value.slice(5, 8)}-${value.slice(8)}` : value;
}
