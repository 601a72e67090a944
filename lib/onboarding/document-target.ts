// Which document a verification requirement asks for (docs/reference.md section 14).

/** What the document is for, from its requirement's path. */
export function documentTarget(field: string): {
  purpose: string;
  subject?: string;
  kind: "identity" | "business" | "bank";
} {
  const owner = /^(owner_(?:one|two|three|four))\.verification\.document$/.exec(field)?.[1];
  if (owner) return { purpose: "identity_document", subject: owner, kind: "identity" };
  if (field === "merchant.bank_account.verification.document") return { purpose: "bank_document", kind: "bank" };
  return { purpose: "business_document", kind: "business" };
}
