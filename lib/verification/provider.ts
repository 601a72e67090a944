import { env } from "../env";
import type { LooseJson } from "../loose-json";
import { checkInputs, type CheckStatus, type CheckSubject, type CheckType } from "./checks";

// Who verifies (docs/reference.md section 14): a provider answers one check from the application's
// data, or from a document the merchant sent. The sandbox provider answers from the contract's magic
// values after a simulated delay; a real provider (an identity or KYB service) implements the same
// two calls. Messages are plain English; the portal words them in the merchant's language by `code`.

export type CheckOutcome = { status: Exclude<CheckStatus, "pending">; code: string | null; message: string | null };
export type CheckRequest = { type: CheckType; subject: CheckSubject; application: LooseJson };
export type DocumentRequest = CheckRequest & {
  document: { id: string; filename: string; type: string; size: number };
  /** Documents refused for this check before this one. */
  refusals: number;
};

export interface VerificationProvider {
  readonly name: string;
  /**
   * How long after it is queued a check may run (the sandbox's simulated answer time): the job is
   * scheduled that far ahead instead of holding a worker while it waits.
   */
  readonly delayMs?: number;
  check(request: CheckRequest): Promise<CheckOutcome>;
  checkDocument(request: DocumentRequest): Promise<CheckOutcome>;
}

const verified: CheckOutcome = { status: "verified", code: null, message: null };

const fullName = (o: LooseJson | undefined) => [o?.first_name, o?.last_name].filter(Boolean).join(" ") || "the owner";

/** What each check asks for when the data alone did not verify it: the reason, and what is acceptable. */
export function documentRequest(type: CheckType, request: CheckRequest): CheckOutcome {
  const app = request.application;
  switch (type) {
    case "identity":
      return {
        status: "requires_document",
        code: "identity_not_verified",
        message: `We could not confirm ${fullName(app[request.subject])}'s identity from the details given. Upload a photo of a driver's license, passport or state ID: the whole document, readable, not expired.`,
      };
    case "business":
      return {
        status: "requires_document",
        code: "business_not_verified",
        message: `We could not confirm that the tax ID belongs to ${app.legal_business_name ?? "the business"}. Upload the IRS letter that assigned the EIN (CP 575 or 147C) or the business's formation document, showing its legal name and tax ID.`,
      };
    case "bank_account":
      return {
        status: "requires_document",
        code: "bank_account_not_verified",
        message: `We could not confirm that the bank account belongs to ${app.legal_business_name ?? "the business"} or to ${fullName(app.owner_one)}. Upload a recent bank statement or a voided check showing the account holder's name and the account number.`,
      };
    case "sanctions":
      return {
        status: "failed",
        code: "sanctions_match",
        message: "A sanctions screening needs an operator's review.",
      };
  }
}

/** A document that could not be used: asked again with the reason, and after two refusals an operator decides. */
export function documentRefused(refusals: number): CheckOutcome {
  return refusals + 1 >= 2
    ? {
        status: "failed",
        code: "document_refused",
        message: "The document was refused twice (it could not be read); an operator reviews the application.",
      }
    : {
        status: "requires_document",
        code: "document_unreadable",
        message:
          "We could not read the document you sent. Upload it again: the whole document, in focus, without glare or anything covering it.",
      };
}

/**
 * The sandbox (the contract's magic values): an owner born 1902-01-01 fails identity (document
 * needed), 1900-01-01 is a sanctions match; TIN 333333333 fails the business check and account
 * 000444444440 the bank check (documents needed); anything else verifies. A document whose file name
 * contains "unreadable" is refused; any other passes. Its answer time is simulated by scheduling
 * (`delayMs`): the answer itself is immediate.
 */
export function sandboxProvider(latencyMs = env.VERIFICATION_LATENCY_MS): VerificationProvider {
  return {
    name: "sandbox",
    delayMs: latencyMs,
    async check(request) {
      const app = request.application;
      switch (request.type) {
        case "identity": {
          const inputs = checkInputs(app, "identity", request.subject);
          return inputs.date_of_birth === "1902-01-01" ? documentRequest("identity", request) : verified;
        }
        case "business":
          return app.tin === "333333333" ? documentRequest("business", request) : verified;
        case "bank_account":
          return app.bank_account?.account_number === "000444444440"
            ? documentRequest("bank_account", request)
            : verified;
        case "sanctions": {
          const hit = (["owner_one", "owner_two", "owner_three", "owner_four"] as const).find(
            (k) => app[k]?.date_of_birth === "1900-01-01",
          );
          return hit
            ? {
                status: "failed",
                code: "sanctions_match",
                message: `${fullName(app[hit])} matches an entry on a sanctions screening list; an operator reviews the application.`,
              }
            : verified;
        }
      }
    },
    async checkDocument(request) {
      return /unreadable/i.test(request.document.filename) ? documentRefused(request.refusals) : verified;
    },
  };
}

/**
 * No provider configured (production's default until one is): nothing is verified automatically,
 * so every check goes to an operator rather than letting an unverified merchant through.
 */
export const noProvider: VerificationProvider = {
  name: "none",
  async check() {
    return {
      status: "failed",
      code: "verification_unavailable",
      message: "No verification provider is configured; an operator verifies this merchant.",
    };
  },
  async checkDocument() {
    return {
      status: "failed",
      code: "verification_unavailable",
      message: "No verification provider is configured; an operator reviews the document.",
    };
  },
};

let current: VerificationProvider | undefined;
/** The provider this process uses (VERIFICATION_PROVIDER); tests may set their own. */
export function verificationProvider(): VerificationProvider {
  current ??= env.VERIFICATION_PROVIDER === "sandbox" ? sandboxProvider() : noProvider;
  return current;
}
export function setVerificationProvider(provider: VerificationProvider | undefined) {
  current = provider;
}
