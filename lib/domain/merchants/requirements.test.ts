import { describe, expect, test } from "vitest";

import example from "../../schemas/examples/merchant-application.json" with { type: "json" };
import { applicationProblems } from "./application";
import { missingParams } from "./requirements";

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
