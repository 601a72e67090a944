import { describe, expect, test } from "vitest";

import example from "../../schemas/examples/merchant-application.json" with { type: "json" };
import { applicationProblems } from "./application";
import { askedFields, askedFor, askFor, missingParams, withAnswered, withoutErrors } from "./requirements";

const params = (application: Record<string, unknown>) => applicationProblems(application).map((e) => e.param);

describe("what an application lacks, remembered", () => {
  test("the same answer as the validation, for applications seen once or again, changed or not", () => {
    const complete = structuredClone(example) as Record<string, unknown>;
    const partial = { legal_business_name: "Acme" };
    const broken = { ...structuredClone(example), tin: "12" } as Record<string, unknown>;
    for (const application of [complete, partial, broken, complete, partial, broken, {}]) {
      expect(missingParams(application)).toEqual(params(application));
    }
    // A change is a new application, not the remembered one.
    const changed = structuredClone(complete);
    delete changed.owner_one;
    expect(missingParams(changed)).toEqual(["merchant.owner_one"]);
    expect(missingParams(complete)).toEqual([]);
  });

  test("a caller changing the list it got does not change what is remembered", () => {
    const partial = { legal_business_name: "Acme" };
    const first = missingParams(partial);
    first.push("device");
    first.splice(0, 1);
    expect(missingParams(partial)).toEqual(params(partial));
  });

  test("more applications than it remembers: each still answered right", () => {
    for (let i = 0; i < 1100; i++) {
      const application = { legal_business_name: `Acme ${i}` };
      expect(missingParams(application)).toEqual(params(application));
    }
    expect(missingParams({ legal_business_name: "Acme 5" })).toEqual(params({ legal_business_name: "Acme 5" }));
  });
});

describe("what is asked of a merchant, merged one way by every writer", () => {
  const bank = { field: "merchant.bank_account", code: "bank_account_unverified", message: "Verify the account" };
  const tin = { field: "merchant.tin", code: "tin_mismatch", message: "The TIN does not match" };
  const tin2 = { field: "merchant.tin", code: "tin_document", message: "Send the IRS letter" };

  test("a decision's findings are the whole request, each field due once", () => {
    expect(askedFor([tin, tin2, bank])).toEqual({
      currently_due: ["merchant.tin", "merchant.bank_account"],
      errors: [tin, tin2, bank],
      asked: ["merchant.tin", "merchant.bank_account"],
    });
  });

  test("asking for a field adds it once and replaces the earlier error about it", () => {
    const asked = askFor(askFor(null, tin), bank);
    expect(asked).toEqual({
      currently_due: ["merchant.tin", "merchant.bank_account"],
      errors: [tin, bank],
      asked: ["merchant.tin", "merchant.bank_account"],
    });
    expect(askFor(asked, tin2)).toEqual({
      currently_due: ["merchant.tin", "merchant.bank_account"],
      errors: [bank, tin2],
      asked: ["merchant.tin", "merchant.bank_account"],
    });
    // Told what it replaces: nothing, so both errors about the TIN stay.
    expect(askFor(asked, tin2, () => false).errors).toEqual([tin, bank, tin2]);
  });

  test("an answer drops its field and its errors; what the round asked is kept until the merchant submits", () => {
    const asked = askedFor([tin, bank]);
    const both = ["merchant.tin", "merchant.bank_account"];
    const open = { open: true };
    expect(withAnswered(asked, (f) => f === "merchant.tin", open)).toEqual({
      currently_due: ["merchant.bank_account"],
      errors: [bank],
      asked: both,
    });
    // Everything answered: nothing due and no error, but the portal still knows what it asked for.
    expect(withAnswered(asked, () => true, open)).toEqual({ currently_due: [], errors: [], asked: both });
    expect(askedFields(withAnswered(asked, () => true, open))).toEqual(both);
    // A row from before `asked` was kept: what was due is what was asked.
    expect(withAnswered({ currently_due: ["merchant.tin"], errors: [tin] }, () => true, open)).toEqual({
      currently_due: [],
      errors: [],
      asked: ["merchant.tin"],
    });
    expect(withAnswered(null, () => true, open)).toBeNull();
    expect(askedFields(null)).toEqual([]);
    // An approved merchant (a failed payout's bank account changed): nothing left is null.
    expect(withAnswered(asked, () => true, { open: false })).toBeNull();
  });

  test("a withdrawn error leaves its field due while another error still asks for it", () => {
    const asked = askedFor([tin, tin2, bank]);
    expect(withoutErrors(asked, (e) => e.code === "tin_mismatch")).toEqual({
      currently_due: ["merchant.tin", "merchant.bank_account"],
      errors: [tin2, bank],
      asked: ["merchant.tin", "merchant.bank_account"],
    });
    expect(withoutErrors(asked, (e) => e.field === "merchant.tin")).toEqual({
      currently_due: ["merchant.bank_account"],
      errors: [bank],
      asked: ["merchant.tin", "merchant.bank_account"],
    });
    expect(withoutErrors(asked, () => false)).toBe(asked);
    expect(withoutErrors(asked, () => true)).toBeNull();
  });
});
