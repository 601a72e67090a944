import { describe, expect, test } from "vitest";

import type { StoredCheck } from "../verification/checks";
import { combine } from "./with-checks";

const check = (over: Partial<StoredCheck>): StoredCheck => ({
  type: "identity",
  subject: "owner_one",
  status: "verified",
  code: null,
  message: null,
  document_file_id: null,
  updated_at: "2026-11-24T00:00:00.000Z",
  input_digest: "d",
  version: 1,
  refusals: 0,
  ...over,
});
const needsDocument = check({ status: "requires_document", code: "identity_not_verified", message: "Upload an ID." });
const sanctioned = check({
  type: "sanctions",
  subject: "merchant",
  status: "failed",
  code: "sanctions_match",
  message: "Match.",
});
const tinFinding = { field: "merchant.tin", code: "tin_unverified", message: "Check the TIN." };

describe("underwriting with the verification checks", () => {
  test("every check verified: the rules decide", () => {
    expect(combine({ outcome: "approve" }, [check({})])).toEqual({ outcome: "approve" });
  });
  test("a check asking for a document turns an approval into a request for that document, with its reason", () => {
    expect(combine({ outcome: "approve" }, [needsDocument])).toEqual({
      outcome: "request_information",
      findings: [{ field: "owner_one.verification.document", code: "identity_not_verified", message: "Upload an ID." }],
    });
  });
  test("the document joins what the rules ask for", () => {
    expect(combine({ outcome: "request_information", findings: [tinFinding] }, [needsDocument])).toEqual({
      outcome: "request_information",
      findings: [
        tinFinding,
        { field: "owner_one.verification.document", code: "identity_not_verified", message: "Upload an ID." },
      ],
    });
  });
  test("a failed check goes to manual review with its reason, whatever else is asked", () => {
    expect(combine({ outcome: "request_information", findings: [tinFinding] }, [needsDocument, sanctioned])).toEqual({
      outcome: "manual_review",
      reason: "Match.",
    });
    expect(combine({ outcome: "manual_review", reason: "High risk." }, [sanctioned])).toEqual({
      outcome: "manual_review",
      reason: "High risk. Match.",
    });
  });
  test("a decline stands", () => {
    expect(combine({ outcome: "decline", reason: "magic" }, [sanctioned])).toEqual({
      outcome: "decline",
      reason: "magic",
    });
  });
});
