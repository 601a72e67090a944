import { describe, expect, test } from "vitest";

import {
  checkForDocument,
  checkInputs,
  documentAnsweredBy,
  documentFinding,
  documentPath,
  isDocumentPath,
  pendingPath,
  planChecks,
  requiredChecks,
  serializeCheck,
  type StoredCheck,
} from "./checks";

// Verification's pure rules (docs/reference.md section 14): which checks an application needs, what
// each reads, how a resubmission keeps or runs them again, and how each is named in requirements.

const owner = (first: string) => ({
  first_name: first,
  last_name: "Ruiz",
  date_of_birth: "1980-01-02",
  ssn: "123456789",
  home_address: { line1: "1 Main St", postal_code: "10001" },
  email: "not read",
});
const app = {
  legal_business_name: "Ana's Cafe LLC",
  doing_business_as: "Ana's",
  tin: "123456789",
  tin_type: "EIN",
  legal_business_address: { line1: "2 Market St" },
  bank_account: {
    routing_number: "021000021",
    account_number: "000123456789",
    account_holder_name: "Ana Ruiz",
    bank_name: "not read",
  },
  owner_one: owner("Ana"),
  owner_two: owner("Luis"),
  phone: "not read",
};
const digest = (inputs: string) => `d:${inputs.length}:${inputs}`;
const now = new Date("2026-05-01T10:00:00.000Z");

describe("what each check reads", () => {
  test("business: name, TIN and its type, the legal address", () => {
    expect(checkInputs(app, "business", "merchant")).toEqual({
      legal_business_name: "Ana's Cafe LLC",
      tin: "123456789",
      tin_type: "EIN",
      address: { line1: "2 Market St" },
    });
  });
  test("identity: the owner's name, birth date, SSN and home address (nothing else)", () => {
    expect(checkInputs(app, "identity", "owner_two")).toEqual({
      first_name: "Luis",
      last_name: "Ruiz",
      date_of_birth: "1980-01-02",
      ssn: "123456789",
      home_address: { line1: "1 Main St", postal_code: "10001" },
    });
    expect(checkInputs(app, "identity", "owner_three")).toEqual({
      first_name: undefined,
      last_name: undefined,
      date_of_birth: undefined,
      ssn: undefined,
      home_address: undefined,
    });
  });
  test("bank account: routing, number, holder, and the names it must match", () => {
    expect(checkInputs(app, "bank_account", "merchant")).toEqual({
      routing_number: "021000021",
      account_number: "000123456789",
      account_holder_name: "Ana Ruiz",
      legal_business_name: "Ana's Cafe LLC",
      owner_one: { first_name: "Ana", last_name: "Ruiz" },
    });
    expect(checkInputs({}, "bank_account", "merchant")).toEqual({
      routing_number: undefined,
      account_number: undefined,
      account_holder_name: undefined,
      legal_business_name: undefined,
      owner_one: { first_name: undefined, last_name: undefined },
    });
  });
  test("sanctions: the business's names and every owner present", () => {
    expect(checkInputs(app, "sanctions", "merchant")).toEqual({
      legal_business_name: "Ana's Cafe LLC",
      doing_business_as: "Ana's",
      owners: [
        { first_name: "Ana", last_name: "Ruiz", date_of_birth: "1980-01-02" },
        { first_name: "Luis", last_name: "Ruiz", date_of_birth: "1980-01-02" },
      ],
    });
  });
});

test("the checks an application needs: business, an identity per owner present, bank account, sanctions", () => {
  expect(requiredChecks(app)).toEqual([
    { type: "business", subject: "merchant" },
    { type: "identity", subject: "owner_one" },
    { type: "identity", subject: "owner_two" },
    { type: "bank_account", subject: "merchant" },
    { type: "sanctions", subject: "merchant" },
  ]);
  expect(requiredChecks({ owner_four: owner("D") }).map((c) => c.subject)).toEqual([
    "merchant",
    "owner_four",
    "merchant",
    "merchant",
  ]);
});

describe("a submission's plan", () => {
  // Made in each test (not while the file is collected), so each test covers what it runs.
  const firstPlan = () => planChecks([], app, digest, now);
  const decidedChecks = () => firstPlan().checks.map((c) => ({ ...c, status: "verified" as const, refusals: 1 }));
  test("the first: every check pending, version 1, queued", () => {
    const first = firstPlan();
    expect(first.changed).toBe(true);
    expect(first.queued).toEqual(first.checks);
    expect(first.checks).toHaveLength(5);
    expect(first.checks[1]).toEqual({
      type: "identity",
      subject: "owner_one",
      status: "pending",
      code: null,
      message: null,
      document_file_id: null,
      updated_at: "2026-05-01T10:00:00.000Z",
      input_digest: digest(JSON.stringify(checkInputs(app, "identity", "owner_one"))),
      version: 1,
      refusals: 0,
    });
  });
  test("again, unchanged: each keeps its result, nothing queued, nothing changed", () => {
    const decided = decidedChecks();
    const again = planChecks(decided, app, digest, now);
    expect(again).toEqual({ checks: decided, queued: [], changed: false });
  });
  test("a check still pending is queued again (its job may be lost), its version bumped", () => {
    const stuck = decidedChecks().map((c, i) => (i === 0 ? { ...c, status: "pending" as const } : c));
    const again = planChecks(stuck, app, digest, now);
    expect(again.queued.map((c) => [c.type, c.version])).toEqual([["business", 2]]);
    expect(again.changed).toBe(true);
  });
  test("a TIN corrected: only the check that reads it (business) runs again", () => {
    const again = planChecks(decidedChecks(), { ...app, tin: "987654321" }, digest, now);
    expect(again.queued.map((c) => `${c.type}:${c.subject}:${c.version}:${c.status}:${c.refusals}`)).toEqual([
      "business:merchant:2:pending:0",
    ]);
    expect(again.checks.filter((c) => c.status === "verified")).toHaveLength(4);
  });
  test("a check no application needs any more (kept from long ago) is dropped: the plan changed, nothing queued", () => {
    const stale = { ...decidedChecks()[1]!, subject: "owner_four" as const };
    const again = planChecks([...decidedChecks(), stale], app, digest, now);
    expect(again.checks).toEqual(decidedChecks());
    expect(again.queued).toEqual([]);
    expect(again.changed).toBe(true);
  });
  test("an owner removed: its check dropped, and the plan changed", () => {
    const withoutTwo: Record<string, unknown> = { ...app };
    delete withoutTwo.owner_two;
    const again = planChecks(decidedChecks(), withoutTwo, digest, now);
    expect(again.checks.map((c) => c.subject)).not.toContain("owner_two");
    // Sanctions read the owners: it runs again.
    expect(again.queued.map((c) => c.type)).toEqual(["sanctions"]);
    expect(again.changed).toBe(true);
  });
});

describe("names in requirements", () => {
  const check = (over: Partial<StoredCheck>): StoredCheck => ({
    type: "identity",
    subject: "owner_two",
    status: "requires_document",
    code: null,
    message: null,
    document_file_id: null,
    updated_at: "2026-05-01T10:00:00.000Z",
    input_digest: "x",
    version: 3,
    refusals: 1,
    ...over,
  });
  test("pending and document paths", () => {
    expect(pendingPath({ type: "identity", subject: "owner_two" })).toBe("owner_two.identity");
    expect(pendingPath({ type: "bank_account", subject: "merchant" })).toBe("merchant.bank_account");
    expect(documentPath({ type: "identity", subject: "owner_three" })).toBe("owner_three.verification.document");
    expect(documentPath({ type: "business", subject: "merchant" })).toBe("merchant.verification.document");
    expect(documentPath({ type: "bank_account", subject: "merchant" })).toBe(
      "merchant.bank_account.verification.document",
    );
    expect(documentPath({ type: "sanctions", subject: "merchant" })).toBeNull();
  });
  test("a document's check, by purpose (and owner)", () => {
    expect(checkForDocument("identity_document", "owner_two")).toEqual({ type: "identity", subject: "owner_two" });
    expect(checkForDocument("identity_document", "owner_nine")).toBeNull();
    expect(checkForDocument("identity_document", null)).toBeNull();
    expect(checkForDocument("business_document", null)).toEqual({ type: "business", subject: "merchant" });
    expect(checkForDocument("bank_document", "owner_one")).toEqual({ type: "bank_account", subject: "merchant" });
    expect(checkForDocument("dispute_evidence", null)).toBeNull();
  });
  test("a document request's finding: only while a document is required, with its reason or a default", () => {
    expect(documentFinding(check({ code: "id_mismatch", message: "The name does not match." }))).toEqual({
      field: "owner_two.verification.document",
      code: "id_mismatch",
      message: "The name does not match.",
    });
    expect(documentFinding(check({}))).toEqual({
      field: "owner_two.verification.document",
      code: "document_required",
      message: "A document is needed.",
    });
    expect(documentFinding(check({ status: "verified" }))).toBeNull();
    expect(documentFinding(check({ type: "sanctions", subject: "merchant" }))).toBeNull();
  });
  test("document paths, and the fields whose correction answers each request instead of a document", () => {
    expect(isDocumentPath("owner_one.verification.document")).toBe(true);
    expect(isDocumentPath("merchant.bank_account.verification.document")).toBe(true);
    expect(isDocumentPath("merchant.verification")).toBe(false);
    expect(isDocumentPath("merchant.tin")).toBe(false);
    // Correcting the TIN answers the business-document request (the check runs again).
    expect(documentAnsweredBy("merchant.verification.document", ["merchant.tin"])).toBe(true);
    expect(documentAnsweredBy("merchant.verification.document", ["merchant.tin_type"])).toBe(true);
    expect(documentAnsweredBy("merchant.verification.document", ["merchant.legal_business_name"])).toBe(true);
    expect(documentAnsweredBy("merchant.verification.document", ["merchant.phone", "merchant.tinsel"])).toBe(false);
    expect(
      documentAnsweredBy("merchant.bank_account.verification.document", ["merchant.bank_account.account_number"]),
    ).toBe(true);
    expect(documentAnsweredBy("merchant.bank_account.verification.document", ["merchant.bank_accounts"])).toBe(false);
    expect(documentAnsweredBy("owner_two.verification.document", ["merchant.owner_two.ssn"])).toBe(true);
    expect(documentAnsweredBy("owner_two.verification.document", ["merchant.owner_one.ssn"])).toBe(false);
    expect(documentAnsweredBy("owner_two.verification.document", [])).toBe(false);
    expect(documentAnsweredBy("merchant.something.document", ["merchant.tin"])).toBe(false);
  });
  test("the public part of a check: its internals left out", () => {
    expect(serializeCheck(check({ code: "c", message: "m", document_file_id: "file_1" }))).toEqual({
      type: "identity",
      subject: "owner_two",
      status: "requires_document",
      code: "c",
      message: "m",
      document_file_id: "file_1",
      updated_at: "2026-05-01T10:00:00.000Z",
    });
  });
});
