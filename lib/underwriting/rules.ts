import type { LooseJson } from "../loose-json";
import {
  accountConfirmationProblem,
  ownershipProblem,
  ownershipTotal,
  routingNumberFinding,
  salesMixProblem,
  ticketProblem,
} from "../onboarding/cross-field";
import { isAccountNumber } from "../schemas/aba";
import { usStateCodes } from "../schemas/us-states";
import { ownerKeys } from "../schemas/vocabulary";

// Underwriting rules (docs/reference.md section 7): each a small pure function over the decrypted
// application, returning the requirements it raises. Codes are stable; the wizard translates them.
export type Finding = { field: string; code: string; message: string };
type App = LooseJson;

const owners = ownerKeys;

export const US_STATES = usStateCodes;

export function bankAccountRules(app: App): Finding[] {
  const bank = app.bank_account ?? {};
  const out: Finding[] = [];
  const routing = routingNumberFinding(bank.routing_number);
  if (routing) out.push(routing);
  if (!isAccountNumber(String(bank.account_number ?? ""))) {
    out.push({
      field: "merchant.bank_account.account_number",
      code: "account_number_invalid",
      message: "The account number must be 4 to 17 digits.",
    });
  } else if (accountConfirmationProblem(bank)) {
    out.push({
      field: "merchant.bank_account.account_number_confirm",
      code: "account_number_mismatch",
      message: "The account number and its confirmation do not match.",
    });
  }
  return out;
}

/** SSN: 9 digits; area not 000, 666 or 900-999; group not 00; serial not 0000. */
export function ssnValid(ssn: string): boolean {
  if (!/^\d{9}$/.test(ssn)) return false;
  const area = Number(ssn.slice(0, 3));
  return area !== 0 && area !== 666 && area < 900 && ssn.slice(3, 5) !== "00" && ssn.slice(5) !== "0000";
}

/** ITIN: 9 digits starting with 9. */
export function itinValid(itin: string): boolean {
  return /^9\d{8}$/.test(itin);
}

export function tinRules(app: App): Finding[] {
  const tin = String(app.tin ?? "");
  const type = app.tin_type;
  const field = "merchant.tin";
  if (!/^\d{9}$/.test(tin)) return [{ field, code: "tin_invalid", message: "The tax ID must be 9 digits." }];
  if (app.business_type !== "Sole Proprietor" && type !== "EIN") {
    return [
      {
        field: "merchant.tin_type",
        code: "ein_required",
        message: "Businesses other than sole proprietors must use an EIN.",
      },
    ];
  }
  if (type === "SSN" && !ssnValid(tin))
    return [{ field, code: "ssn_invalid", message: "This is not a valid Social Security number." }];
  if (type === "ITIN" && !itinValid(tin)) return [{ field, code: "itin_invalid", message: "An ITIN starts with 9." }];
  if (type === "EIN" && tin.startsWith("00"))
    return [{ field, code: "ein_invalid", message: "This is not a valid EIN." }];
  return [];
}

export function ageOn(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age;
}

export function ownerRules(app: App, today: Date): Finding[] {
  const out: Finding[] = [];
  const listed = owners.filter((k) => app[k]);
  for (const k of listed) {
    const owner = app[k];
    if (owner.date_of_birth && ageOn(owner.date_of_birth, today) < 18) {
      out.push({
        field: `merchant.${k}.date_of_birth`,
        code: "owner_under_18",
        message: "Every owner must be at least 18 years old.",
      });
    }
    if (!ssnValid(String(owner.ssn ?? "")))
      out.push({
        field: `merchant.${k}.ssn`,
        code: "ssn_invalid",
        message: "This is not a valid Social Security number.",
      });
  }
  const ownership = ownershipProblem(ownershipTotal(app, listed), app.business_type, { requireQuarter: true });
  if (ownership === "ownership_over_100") {
    out.push({
      field: "merchant.owner_one.ownership_percentage",
      code: ownership,
      message: "The owners' percentages add up to more than 100.",
    });
  } else if (ownership === "ownership_under_25") {
    out.push({
      field: "merchant.owner_one.ownership_percentage",
      code: ownership,
      message: "List owners who together hold at least 25% of the business.",
    });
  }
  return out;
}

export function businessRules(app: App, today: Date): Finding[] {
  const out: Finding[] = [];
  if (app.business_established_date && app.business_established_date > today.toISOString().slice(0, 10)) {
    out.push({
      field: "merchant.business_established_date",
      code: "date_in_future",
      message: "The business cannot be established in the future.",
    });
  }
  const addresses: [string, App | undefined][] = [
    ["merchant.legal_business_address", app.legal_business_address],
    ["merchant.dba_address", app.dba_address],
    ...owners.filter((k) => app[k]).map((k) => [`merchant.${k}.home_address`, app[k].home_address] as [string, App]),
  ];
  for (const [path, address] of addresses) {
    if (!address) continue;
    if (!US_STATES.has(address.state))
      out.push({
        field: `${path}.state`,
        code: "state_invalid",
        message: "Use a US state or territory code such as CA.",
      });
    if (!/^\d{5}(-?\d{4})?$/.test(String(address.zip ?? "")))
      out.push({ field: `${path}.zip`, code: "zip_invalid", message: "Use a 5 or 9 digit ZIP code." });
  }
  return out;
}

export function salesRules(app: App): Finding[] {
  const out: Finding[] = [];
  const sales = app.current_sales ?? {};
  if (salesMixProblem(sales.sales_percentage))
    out.push({
      field: "merchant.current_sales.sales_percentage",
      code: "sales_mix_not_100",
      message: "How customers pay must add up to 100%.",
    });
  if (ticketProblem(sales)) {
    out.push({
      field: "merchant.current_sales.average_ticket_value",
      code: "average_above_highest",
      message: "The average sale cannot be larger than the largest sale.",
    });
  }
  return out;
}

/** Subcategories that carry high risk: an operator decides. */
export const highRiskSubcategories = new Set([
  "Quasi Cash",
  "Massage Parlors",
  "Pawn Shop",
  "Insurance via Direct Mail",
  "Mail Order",
  "Political Organizations",
  "Large Digital Goods Merchant",
  "Package Stores--Beer, Wine, and Liquor",
  "Wrecking and Salvage Yards",
  "Counseling Services - Debt, Marriage, and Personal",
]);

export function isHighRisk(app: App): boolean {
  return (
    highRiskSubcategories.has(app.main_product?.subcategory) ||
    app.main_product?.category === "Telemarketing and Direct Marketing"
  );
}

export type Decision =
  | { outcome: "approve" }
  | { outcome: "request_information"; findings: Finding[] }
  | { outcome: "manual_review"; reason: string }
  | { outcome: "decline"; reason: string };

export const MAGIC_TINS = {
  approve: "000000000",
  request: "111111111",
  review: "222222222",
  decline: "999999999",
} as const;
type MagicAnswer = keyof typeof MAGIC_TINS;
const magicTinAnswer = (tin: unknown): MagicAnswer | null =>
  (Object.keys(MAGIC_TINS) as MagicAnswer[]).find((k) => MAGIC_TINS[k] === tin) ?? null;

/**
 * The decision for a complete, decrypted application. In sandbox a magic TIN stands for the answer
 * of the TIN check only (approve: verified; request: unverified, asked again; review: sent to a
 * person; decline: refused): every other rule still applies, so an owner under 18 or a business
 * established in the future is asked about whatever the TIN says.
 */
export function decide(app: App, options: { sandbox: boolean; today: Date }): Decision {
  const magic = options.sandbox ? magicTinAnswer(app.tin) : null;
  if (magic === "decline") return { outcome: "decline", reason: `sandbox magic TIN ${MAGIC_TINS.decline}` };
  const tinFindings: Finding[] =
    magic === "request"
      ? [
          {
            field: "merchant.tin",
            code: "tin_unverified",
            message: "We could not verify the tax ID. Check it and enter it again.",
          },
        ]
      : magic !== null
        ? []
        : tinRules(app);
  const findings = [
    ...bankAccountRules(app),
    ...tinFindings,
    ...ownerRules(app, options.today),
    ...businessRules(app, options.today),
    ...salesRules(app),
  ];
  if (findings.length) return { outcome: "request_information", findings };
  if (magic === "review") return { outcome: "manual_review", reason: `sandbox magic TIN ${MAGIC_TINS.review}` };
  if (isHighRisk(app))
    return { outcome: "manual_review", reason: `high-risk subcategory: ${app.main_product?.subcategory}` };
  return { outcome: "approve" };
}
