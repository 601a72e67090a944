import type { LooseJson } from "../loose-json";
import type { FilePurpose } from "../schemas/files";
import type { CheckStatus, CheckSubject, CheckType } from "../schemas/verification";
import { type OwnerKey, ownerKeys } from "../schemas/vocabulary";

// Verification (docs/reference.md section 14): which checks an application needs, what each one
// reads, and how each is named in `verification`, `requirements.pending_verification` and
// `requirements.currently_due`. Pure: the jobs (lib/domain/verification) and the provider
// (./provider.ts) do the rest.

export { checkStatuses, checkSubjects, checkTypes } from "../schemas/verification";
export type { CheckStatus, CheckSubject, CheckType };

/** One check as the merchant row keeps it; `serializeCheck` shows the public part. */
export type StoredCheck = {
  type: CheckType;
  subject: CheckSubject;
  status: CheckStatus;
  code: string | null;
  message: string | null;
  document_file_id: string | null;
  updated_at: string;
  /** Internal: a keyed digest of what the check read; a change runs it again. */
  input_digest: string;
  /** Internal: bumped every time the check is queued; a job for an older version does nothing. */
  version: number;
  /** Internal: documents refused so far (two: the check fails, an operator decides). */
  refusals: number;
};

export type CheckJson = Pick<
  StoredCheck,
  "type" | "subject" | "status" | "code" | "message" | "document_file_id" | "updated_at"
>;

export const serializeCheck = (c: StoredCheck): CheckJson => ({
  type: c.type,
  subject: c.subject,
  status: c.status,
  code: c.code,
  message: c.message,
  document_file_id: c.document_file_id,
  updated_at: c.updated_at,
});

type App = LooseJson;

/** What each check reads from the (decrypted) application. */
export function checkInputs(app: App, type: CheckType, subject: CheckSubject): Record<string, unknown> {
  const owners = ownerKeys.filter((k) => app[k]);
  const person = (o: App | undefined) => ({
    first_name: o?.first_name,
    last_name: o?.last_name,
    date_of_birth: o?.date_of_birth,
  });
  switch (type) {
    case "business":
      return {
        legal_business_name: app.legal_business_name,
        tin: app.tin,
        tin_type: app.tin_type,
        address: app.legal_business_address,
      };
    case "identity": {
      const o = app[subject] as App | undefined;
      return { ...person(o), ssn: o?.ssn, home_address: o?.home_address };
    }
    case "bank_account":
      return {
        routing_number: app.bank_account?.routing_number,
        account_number: app.bank_account?.account_number,
        account_holder_name: app.bank_account?.account_holder_name,
        legal_business_name: app.legal_business_name,
        owner_one: { first_name: app.owner_one?.first_name, last_name: app.owner_one?.last_name },
      };
    case "sanctions":
      return {
        legal_business_name: app.legal_business_name,
        doing_business_as: app.doing_business_as,
        owners: owners.map((k) => person(app[k])),
      };
  }
}

/** The checks an application needs: business, one identity per owner, bank account, sanctions. */
export function requiredChecks(app: App): { type: CheckType; subject: CheckSubject }[] {
  return [
    { type: "business", subject: "merchant" },
    ...ownerKeys.filter((k) => app[k]).map((k) => ({ type: "identity" as const, subject: k })),
    { type: "bank_account", subject: "merchant" },
    { type: "sanctions", subject: "merchant" },
  ];
}

export type CheckPlan = { checks: StoredCheck[]; queued: StoredCheck[]; changed: boolean };

/**
 * The checks after a submission: a check whose inputs did not change keeps its result (verified
 * stays verified, a document still asked for is still asked for); a new check, or one whose inputs
 * changed, is pending again (its version bumped) and queued; a check whose subject left the
 * application (an owner removed) is dropped.
 */
export function planChecks(
  existing: StoredCheck[],
  app: App,
  digest: (inputs: string) => string,
  now: Date,
): CheckPlan {
  const queued: StoredCheck[] = [];
  let changed = false;
  const checks = requiredChecks(app).map(({ type, subject }) => {
    const inputs = digest(JSON.stringify(checkInputs(app, type, subject)));
    const before = existing.find((c) => c.type === type && c.subject === subject);
    if (before && before.input_digest === inputs && before.status !== "pending") return before;
    const next: StoredCheck = {
      type,
      subject,
      status: "pending",
      code: null,
      message: null,
      document_file_id: null,
      updated_at: now.toISOString(),
      input_digest: inputs,
      version: (before?.version ?? 0) + 1,
      refusals: 0,
    };
    queued.push(next);
    changed = true;
    return next;
  });
  if (existing.length !== checks.length) changed = true;
  return { checks, queued, changed };
}

/** The path of a running check in `requirements.pending_verification`, e.g. `owner_one.identity`, `merchant.business`. */
export const pendingPath = (c: Pick<StoredCheck, "type" | "subject">) => `${c.subject}.${c.type}`;

/** The path of the document a check asks for, in `requirements.currently_due`. */
export function documentPath(c: Pick<StoredCheck, "type" | "subject">): string | null {
  switch (c.type) {
    case "identity":
      return `${c.subject}.verification.document`;
    case "business":
      return "merchant.verification.document";
    case "bank_account":
      return "merchant.bank_account.verification.document";
    case "sanctions":
      return null;
  }
}

/** The check a document is for: its purpose (and, for an identity document, its owner). */
export function checkForDocument(purpose: FilePurpose | string, subject: OwnerKey | string | null | undefined) {
  if (purpose === "identity_document") {
    const owner = ownerKeys.find((k) => k === subject);
    return owner ? { type: "identity" as const, subject: owner } : null;
  }
  if (purpose === "business_document") return { type: "business" as const, subject: "merchant" as const };
  if (purpose === "bank_document") return { type: "bank_account" as const, subject: "merchant" as const };
  return null;
}

/** What a check's document request puts in `requirements` (path and reason), if it asks for one. */
export function documentFinding(c: StoredCheck): { field: string; code: string; message: string } | null {
  const field = documentPath(c);
  if (c.status !== "requires_document" || !field) return null;
  return { field, code: c.code ?? "document_required", message: c.message ?? "A document is needed." };
}

/** Every document-request path: what a merchant can satisfy by uploading, not by editing a field. */
export const isDocumentPath = (field: string) => field.endsWith(".verification.document");

/**
 * Whether a change of these application fields (paths such as `merchant.owner_one.date_of_birth`)
 * answers a document request instead of the document: the check's inputs changed, so it runs again
 * on the next submission.
 */
export function documentAnsweredBy(field: string, touched: string[]): boolean {
  const inputs: Record<string, string[]> = {
    "merchant.verification.document": ["merchant.legal_business_name", "merchant.tin", "merchant.tin_type"],
    "merchant.bank_account.verification.document": ["merchant.bank_account"],
    ...Object.fromEntries(ownerKeys.map((k) => [`${k}.verification.document`, [`merchant.${k}`]])),
  };
  const prefixes = inputs[field];
  return !!prefixes && touched.some((t) => prefixes.some((p) => t === p || t.startsWith(`${p}.`)));
}
