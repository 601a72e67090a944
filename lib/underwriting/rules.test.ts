import { describe, expect, test } from "vitest";

import example from "../schemas/examples/merchant-application.json" with { type: "json" };
import {
  ageOn,
  bankAccountRules,
  businessRules,
  decide,
  itinValid,
  ownerRules,
  salesRules,
  ssnValid,
  tinRules,
} from "./rules";

const today = new Date("2026-11-22T12:00:00Z");
const app = () => structuredClone(example) as any;
const fields = (f: { field: string }[]) => f.map((x) => x.field);

describe("the example application", () => {
  test("passes every rule and is approved", () => {
    expect(decide(app(), { sandbox: false, today })).toEqual({ outcome: "approve" });
  });
});

describe("bank account", () => {
  test.each([
    ["021000021", []],
    ["021000022", ["merchant.bank_account.routing_number"]],
    ["12345678", ["merchant.bank_account.routing_number"]],
  ])("routing %s", (routing, expected) => {
    const a = app();
    a.bank_account.routing_number = routing;
    expect(fields(bankAccountRules(a))).toEqual(expected);
  });
  test("confirmation must match; 4-17 digits", () => {
    const a = app();
    a.bank_account.account_number_confirm = "000123456780";
    expect(bankAccountRules(a)[0]).toMatchObject({ code: "account_number_mismatch" });
    a.bank_account.account_number = "123";
    expect(bankAccountRules(a)[0]).toMatchObject({ code: "account_number_invalid" });
  });
});

describe("tax ids", () => {
  test.each([
    ["123456789", true],
    ["000123456", false],
    ["666123456", false],
    ["900123456", false],
    ["999123456", false],
    ["123006789", false],
    ["123450000", false],
    ["12345678", false],
  ])("ssnValid(%s) is %s", (ssn, ok) => expect(ssnValid(ssn)).toBe(ok));
  test.each([
    ["912345678", true],
    ["812345678", false],
    ["91234567", false],
  ])("itinValid(%s) is %s", (itin, ok) => expect(itinValid(itin)).toBe(ok));
  test.each([
    ["Limited Liability (LLC)", "EIN", "123456789", []],
    ["Limited Liability (LLC)", "SSN", "123456789", ["merchant.tin_type"]],
    ["Corporation", "ITIN", "912345678", ["merchant.tin_type"]],
    ["Sole Proprietor", "SSN", "401234567", []],
    ["Sole Proprietor", "SSN", "666123456", ["merchant.tin"]],
    ["Sole Proprietor", "ITIN", "912345678", []],
    ["Sole Proprietor", "ITIN", "412345678", ["merchant.tin"]],
    ["Partnership", "EIN", "12345678", ["merchant.tin"]],
  ])("%s with %s %s", (type, tinType, tin, expected) => {
    const a = app();
    Object.assign(a, { business_type: type, tin_type: tinType, tin });
    expect(fields(tinRules(a))).toEqual(expected);
  });
});

describe("owners", () => {
  test.each([
    ["2008-11-22", 18],
    ["2008-11-23", 17],
    ["1980-04-12", 46],
  ])("ageOn(%s) is %i", (dob, age) => expect(ageOn(dob, today)).toBe(age));
  test("an owner under 18 is a requirement on their date of birth", () => {
    const a = app();
    a.owner_two.date_of_birth = "2010-01-01";
    expect(fields(ownerRules(a, today))).toEqual(["merchant.owner_two.date_of_birth"]);
  });
  test("percentages over 100, and under 25 except for tax-exempt organisations and trusts", () => {
    const a = app();
    a.owner_two.ownership_percentage = "41";
    expect(ownerRules(a, today)[0]).toMatchObject({ code: "ownership_over_100" });
    a.owner_one.ownership_percentage = "10";
    a.owner_two.ownership_percentage = "10";
    expect(ownerRules(a, today)[0]).toMatchObject({ code: "ownership_under_25" });
    a.business_type = "Tax Exempt Org";
    expect(ownerRules(a, today)).toEqual([]);
    a.business_type = "Association/State & Trust";
    expect(ownerRules(a, today)).toEqual([]);
  });
  test("owner SSNs must be valid", () => {
    const a = app();
    a.owner_one.ssn = "900123456";
    expect(fields(ownerRules(a, today))).toEqual(["merchant.owner_one.ssn"]);
  });
});

describe("business and sales", () => {
  test("established in the future", () => {
    const a = app();
    a.business_established_date = "2027-01-01";
    expect(fields(businessRules(a, today))).toEqual(["merchant.business_established_date"]);
  });
  test.each([
    ["CA", "94103", []],
    ["XX", "94103", ["merchant.legal_business_address.state"]],
    ["CA", "9410", ["merchant.legal_business_address.zip"]],
    ["DC", "20001-1234", []],
  ])("state %s zip %s", (state, zip, expected) => {
    const a = app();
    a.legal_business_address = { ...a.legal_business_address, state, zip };
    expect(fields(businessRules(a, today))).toEqual(expected);
  });
  test("the sales mix must be 100 and the average ticket at most the highest", () => {
    const a = app();
    a.current_sales.sales_percentage.keyed_percentage = "5";
    a.current_sales.average_ticket_value = "1000";
    expect(fields(salesRules(a))).toEqual([
      "merchant.current_sales.sales_percentage",
      "merchant.current_sales.average_ticket_value",
    ]);
  });
});

describe("decide", () => {
  test.each([
    ["000000000", "approve"],
    ["111111111", "request_information"],
    ["222222222", "manual_review"],
    ["999999999", "decline"],
  ])("sandbox magic TIN %s on a clean application: %s", (tin, outcome) => {
    const a = app();
    a.tin = tin;
    expect(decide(a, { sandbox: true, today }).outcome).toBe(outcome);
  });
  test.each([
    ["000000000", ["merchant.bank_account.routing_number"]],
    ["111111111", ["merchant.bank_account.routing_number", "merchant.tin"]],
    ["222222222", ["merchant.bank_account.routing_number"]],
  ])("sandbox magic TIN %s answers the TIN check only: every other rule still applies", (tin, asked) => {
    const a = app();
    a.tin = tin;
    a.bank_account.routing_number = "021000022"; // fails the ABA checksum
    const decision = decide(a, { sandbox: true, today });
    expect(decision.outcome).toBe("request_information");
    expect(decision.outcome === "request_information" && fields(decision.findings)).toEqual(asked);
  });
  test("the approving magic TIN does not approve an owner under 18 or a business established in the future", () => {
    const a = app();
    a.tin = "000000000";
    a.owner_one.date_of_birth = "2008-06-02"; // 18 tomorrow
    a.business_established_date = "2099-01-01";
    const decision = decide(a, { sandbox: true, today: new Date("2026-06-01T00:00:00Z") });
    expect(decision).toMatchObject({
      outcome: "request_information",
      findings: [
        { field: "merchant.owner_one.date_of_birth", code: "owner_under_18" },
        { field: "merchant.business_established_date", code: "date_in_future" },
      ],
    });
  });
  test("the declining magic TIN declines whatever else is wrong", () => {
    const a = app();
    a.tin = "999999999";
    a.bank_account.routing_number = "021000022";
    expect(decide(a, { sandbox: true, today })).toEqual({ outcome: "decline", reason: "sandbox magic TIN 999999999" });
  });
  test("magic TINs are ordinary numbers in production", () => {
    const a = app();
    a.tin = "999999999";
    expect(decide(a, { sandbox: false, today }).outcome).toBe("approve");
  });
  test("a high-risk subcategory goes to manual review", () => {
    const a = app();
    a.main_product = { ...a.main_product, category: "Financial Services", subcategory: "Quasi Cash" };
    expect(decide(a, { sandbox: false, today })).toMatchObject({ outcome: "manual_review" });
  });
  test("failed rules request information, every finding listed", () => {
    const a = app();
    a.bank_account.routing_number = "021000022";
    a.owner_two.date_of_birth = "2015-01-01";
    const d = decide(a, { sandbox: false, today });
    expect(d.outcome).toBe("request_information");
    expect(d.outcome === "request_information" && fields(d.findings)).toEqual([
      "merchant.bank_account.routing_number",
      "merchant.owner_two.date_of_birth",
    ]);
  });
});
