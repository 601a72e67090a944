import type { LooseJson } from "../loose-json";

// Whom an underwriting or verification request names (a document request says whose document):
// read by the wizard, the portal and the completion page, on the server and in the browser.

/** Whose names a request's reason may mention: the owners and the business, from the session. */
export function requestNames(merchant: LooseJson | null | undefined) {
  const person = (o: LooseJson | null | undefined) => [o?.first_name, o?.last_name].filter(Boolean).join(" ");
  const match = (field: string) => /^(owner_(?:one|two|three|four))\./.exec(field)?.[1];
  return (field: string) => ({
    name: person(merchant?.[match(field) ?? "owner_one"]),
    owner: person(merchant?.owner_one),
    business: String(merchant?.legal_business_name ?? ""),
  });
}
