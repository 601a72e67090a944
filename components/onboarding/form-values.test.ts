import { describe, expect, test } from "vitest";

import { stepSchema } from "@/lib/onboarding/step-schemas";

import { groupAwareResolver, stripEmpty, toFormValues } from "./form-values";

describe("the wizard's form values", () => {
  test("a US phone in E.164 is shown as the hint asks; other values as they are", () => {
    expect(toFormValues({ legal_phone: "+14155550123", tin: "123456789", x: null })).toEqual({
      legal_phone: "(415) 555-0123",
      tin: "123456789",
      x: "",
    });
    expect(toFormValues("+442071234567")).toBe("+442071234567");
  });

  test("empty inputs are not given", () => {
    expect(stripEmpty({ a: "", b: { c: "" }, d: "x" })).toEqual({ d: "x" });
  });

  test("an entirely empty group the form shows field by field is marked field by field", async () => {
    const resolve = groupAwareResolver(stepSchema("business"));
    const values = {
      legal_business_name: "",
      legal_business_address: { address: "", city: "", state: "", zip: "" },
      main_contact_person: { name: "", email: "" },
    };
    const { errors } = (await resolve(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    } as never)) as { errors: any };
    expect(Object.keys(errors.legal_business_address).sort()).toEqual(["address", "city", "state", "zip"]);
    expect(errors.legal_business_address.type).toBeUndefined();
    expect(Object.keys(errors.main_contact_person).sort()).toEqual(["email", "name"]);
    expect(errors.legal_business_name.type).toBe("required");
    // An empty choice is missing, not invalid.
    expect(errors.business_type.type).toBe("required");
  });
});
