// A field of the application named as the wizard's forms name it ("merchant.bank_account.
// routing_number" → "Bank account: Routing number"), for the dashboard and anywhere a field is
// reported to a person. `t` and `has` are next-intl's for the root namespace (client or server).
import { ownerKeys } from "../schemas/vocabulary";
import { loose, type LooseTranslator as Translate, type Translator } from "./dynamic";

const namespaces = ["fields", "fields.address", "fields.owner", "fields.bank", "fields.product", "fields.sales"];
const groups: Record<string, string> = {
  bank_account: "wizard.steps.bank",
  main_product: "wizard.steps.product",
  current_sales: "wizard.steps.sales",
  main_contact_person: "fields.main_contact_person",
  device: "wizard.steps.device",
  name: "fields.contact_name",
  sales_percentage: "fields.salesMix",
  device_selection: "wizard.steps.device",
  agreement: "wizard.steps.agreement",
};
const owners: readonly string[] = ownerKeys;

function one(t: Translate, key: string): string {
  if (owners.includes(key)) return t("fields.ownerHeading", { n: owners.indexOf(key) + 1 });
  if (groups[key] && t.has(groups[key])) return t(groups[key]);
  // A label is a string; a key that names a group of labels (fields.address) is not one.
  for (const ns of namespaces)
    if (t.has(`${ns}.${key}`) && typeof t.raw(`${ns}.${key}`) === "string") return t(`${ns}.${key}`);
  return key.replace(/_/g, " ");
}

/** One key's label (a review row), or a whole path's ("Bank account: Routing number"). */
export const keyLabel = (translator: Translator, key: string) => one(loose(translator), key);

export function fieldLabel(translator: Translator, path: string): string {
  const t = loose(translator);
  // A document a verification check asks for (docs/reference.md section 14).
  if (path === "merchant.verification.document") return t("verification.titleBusiness");
  if (path === "merchant.bank_account.verification.document") return t("verification.titleBank");
  const owner = /^(owner_(?:one|two|three|four))\.verification\.document$/.exec(path)?.[1];
  if (owner) return t("verification.ownerDocument", { owner: one(t, owner) });
  const parts = path.replace(/^merchant\./, "").split(".");
  if (parts[0] === "main_product") return one(t, parts.length > 1 ? (parts.at(-1) ?? "main_product") : "main_product");
  return parts.map((p) => one(t, p)).join(": ");
}
