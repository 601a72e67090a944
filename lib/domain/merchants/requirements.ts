import type { MerchantRow } from "../../db/schema";
import { routingNumberFinding } from "../../onboarding/cross-field";
import { pendingPath } from "../../verification/checks";
import { applicationProblems } from "./application";
import { isOpen } from "./status";

export type Requirements = {
  currently_due: string[];
  errors: { field: string; code: string; message: string }[];
  disabled_reason: string | null;
  /** The verification checks still running (docs/reference.md section 14). */
  pending_verification: string[];
};

// What underwriting, verification and payouts ask of a merchant is stored in its `requirements`
// column; these four functions are the only ways it changes (the stored value, pure), so every
// writer merges the lists the same way.

/** The stored requests: what is due and why (null: none, and the requirements are computed). */
export type StoredRequirements = MerchantRow["requirements"];
type Finding = { field: string; code: string; message: string };

/**
 * `finding` asked for: its field due (once), its error in place of the errors it `replaces` (by
 * default, any earlier one about the same field).
 */
export function askFor(
  requirements: StoredRequirements,
  finding: Finding,
  replaces: (error: Finding) => boolean = (e) => e.field === finding.field,
): NonNullable<StoredRequirements> {
  return {
    currently_due: [...new Set([...(requirements?.currently_due ?? []), finding.field])],
    errors: [...(requirements?.errors ?? []).filter((e) => !replaces(e)), finding],
    asked: [...new Set([...askedFields(requirements), finding.field])],
  };
}

/**
 * The fields the merchant was asked for in this round (answered or not; rows from before `asked` was
 * kept: what is due): the portal lists their steps, with the review and the signature, until the
 * application is submitted again.
 */
export const askedFields = (requirements: StoredRequirements): string[] =>
  requirements?.asked ?? requirements?.currently_due ?? [];

/** A decision's findings as the whole of what is asked: underwriting's request replaces what was asked before. */
export function askedFor(findings: readonly Finding[]): NonNullable<StoredRequirements> {
  const fields = [...new Set(findings.map((f) => f.field))];
  return { currently_due: fields, errors: [...findings], asked: fields };
}

/**
 * The requests a change `answers` (a field it set, a document it attached) dropped. Once nothing is
 * due, on an open application what was asked is still kept (nothing due, no errors) for the portal
 * to list its steps until the merchant submits again; otherwise (an approved merchant's bank account
 * changed after a failed payout) null.
 */
export function withAnswered(
  requirements: StoredRequirements,
  answers: (field: string) => boolean,
  application: { open: boolean },
): StoredRequirements {
  if (!requirements) return null;
  const currently_due = requirements.currently_due.filter((f) => !answers(f));
  const asked = application.open ? askedFields(requirements) : [];
  const errors = currently_due.length ? requirements.errors.filter((e) => !answers(e.field)) : [];
  return currently_due.length || asked.length ? { currently_due, errors, asked } : null;
}

/**
 * The errors that `match` withdrawn, and their fields no longer due unless another error still asks
 * for them; null once nothing is left.
 */
export function withoutErrors(
  requirements: StoredRequirements,
  match: (error: Finding) => boolean,
): StoredRequirements {
  if (!requirements) return null;
  const withdrawn = requirements.errors.filter(match);
  if (withdrawn.length === 0) return requirements;
  const errors = requirements.errors.filter((e) => !match(e));
  const currently_due = requirements.currently_due.filter(
    (f) => !withdrawn.some((w) => w.field === f) || errors.some((e) => e.field === f),
  );
  const asked = requirements.asked ? { asked: requirements.asked } : {};
  return currently_due.length || errors.length ? { currently_due, errors, ...asked } : null;
}

/**
 * The params of what the application lacks or has wrong: a function of the application alone,
 * remembered for the last 1,000 applications seen (keyed by their JSON, which costs a sixth of the
 * validation), since every read of a merchant, its events and its session answer repeat it for an
 * application that rarely changes between reads.
 */
const MEMO_SIZE = 1000;
const problemsMemo = new Map<string, readonly string[]>();
export function missingParams(application: Record<string, unknown>): string[] {
  const key = JSON.stringify(application);
  let params = problemsMemo.get(key);
  if (params) problemsMemo.delete(key);
  else {
    params = applicationProblems(application).map((e) => e.param);
    const oldest = problemsMemo.keys().next();
    if (problemsMemo.size >= MEMO_SIZE && !oldest.done) problemsMemo.delete(oldest.value);
  }
  problemsMemo.set(key, params);
  return [...params];
}

/** Whether the ISV's merchants must choose a device (its settings; on unless turned off). */
export const deviceRequired = (settings: unknown) =>
  (settings as { device_selection_required?: boolean } | null)?.device_selection_required !== false;

/** What the merchant still has to supply, under its ISV's settings: what the merchant serializer is handed. */
export const requirementsFor = (row: MerchantRow, isv: { settings: unknown }) =>
  merchantRequirements(row, { deviceRequired: deviceRequired(isv.settings) });

/**
 * What the merchant still has to supply. While onboarding is open and underwriting has asked for
 * nothing, it is every required field that is missing or invalid; after underwriting asked, what it
 * asked for.
 */
export function merchantRequirements(row: MerchantRow, options: { deviceRequired: boolean }): Requirements {
  const disabled_reason =
    row.status === "APPROVED"
      ? row.deactivated
        ? "deactivated"
        : null
      : row.status === "FAILED"
        ? "rejected"
        : row.status === "COMPLETED"
          ? "under_review"
          : "onboarding_incomplete";
  const pending_verification = row.verification.filter((c) => c.status === "pending").map(pendingPath);
  if (row.requirements && row.requirements.currently_due.length > 0) {
    const { currently_due, errors } = row.requirements;
    return { currently_due, errors, disabled_reason, pending_verification };
  }
  if (!isOpen(row.status)) return { currently_due: [], errors: [], disabled_reason, pending_verification };
  const due = missingParams(row.application);
  if (options.deviceRequired && !row.deviceSelection) due.push("device");
  // What would certainly fail underwriting is said now, not after submitting: the routing number's checksum.
  const routingNumber = (row.application.bank_account as { routing_number?: unknown } | undefined)?.routing_number;
  const routing = routingNumber ? routingNumberFinding(routingNumber) : null;
  const errors = routing ? [routing] : [];
  return {
    currently_due: [...new Set([...due, ...errors.map((e) => e.field)])],
    errors,
    disabled_reason,
    pending_verification,
  };
}
