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
  US_STATES,
} from "./rules";

// Each finding exactly as the merchant reads it in requirements.errors (field, code and message),
// and the boundaries of every rule: the wording and the edges are the contract, not details.
const today = new Date("2026-11-22T12:00:00Z");
const app = () => structuredClone(example) as any;

describe("every finding, exactly", () => {
  test.each([
    [
      "routing",
      (a: any) => (a.bank_account.routing_number = "021000022"),
      bankAccountRules,
      [
        {
          field: "merchant.bank_account.routing_number",
          code: "routing_number_invalid",
          message:
            "The routing number does not pass the ABA checksum. Compare it with a check from the account or with your bank's website.",
        },
      ],
    ],
    [
      "account length",
      (a: any) => (a.bank_account.account_number = "123"),
      bankAccountRules,
      [
        {
          field: "merchant.bank_account.account_number",
          code: "account_number_invalid",
          message: "The account number must be 4 to 17 digits.",
        },
      ],
    ],
    [
      "confirmation",
      (a: any) => (a.bank_account.account_number_confirm = "000123456780"),
      bankAccountRules,
      [
        {
          field: "merchant.bank_account.account_number_confirm",
          code: "account_number_mismatch",
          message: "The account number and its confirmation do not match.",
        },
      ],
    ],
    [
      "tin length",
      (a: any) => (a.tin = "12345678"),
      tinRules,
      [{ field: "merchant.tin", code: "tin_invalid", message: "The tax ID must be 9 digits." }],
    ],
    [
      "ein required",
      (a: any) => (a.tin_type = "SSN"),
      tinRules,
      [
        {
          field: "merchant.tin_type",
          code: "ein_required",
          message: "Businesses other than sole proprietors must use an EIN.",
        },
      ],
    ],
    [
      "ssn tin",
      (a: any) => Object.assign(a, { business_type: "Sole Proprietor", tin_type: "SSN", tin: "666123456" }),
      tinRules,
      [{ field: "merchant.tin", code: "ssn_invalid", message: "This is not a valid Social Security number." }],
    ],
    [
      "itin",
      (a: any) => Object.assign(a, { business_type: "Sole Proprietor", tin_type: "ITIN", tin: "812345678" }),
      tinRules,
      [{ field: "merchant.tin", code: "itin_invalid", message: "An ITIN starts with 9." }],
    ],
    [
      "ein 00",
      (a: any) => (a.tin = "001234567"),
      tinRules,
      [{ field: "merchant.tin", code: "ein_invalid", message: "This is not a valid EIN." }],
    ],
    [
      "owner ssn",
      (a: any) => (a.owner_two.ssn = "000123456"),
      (a: any) => ownerRules(a, today),
      [
        {
          field: "merchant.owner_two.ssn",
          code: "ssn_invalid",
          message: "This is not a valid Social Security number.",
        },
      ],
    ],
    [
      "under 18",
      (a: any) => (a.owner_one.date_of_birth = "2010-01-01"),
      (a: any) => ownerRules(a, today),
      [
        {
          field: "merchant.owner_one.date_of_birth",
          code: "owner_under_18",
          message: "Every owner must be at least 18 years old.",
        },
      ],
    ],
    [
      "over 100",
      (a: any) => (a.owner_two.ownership_percentage = "90"),
      (a: any) => ownerRules(a, today),
      [
        {
          field: "merchant.owner_one.ownership_percentage",
          code: "ownership_over_100",
          message: "The owners' percentages add up to more than 100.",
        },
      ],
    ],
    [
      "under 25",
      (a: any) => {
        a.owner_one.ownership_percentage = "10";
        a.owner_two.ownership_percentage = "10";
      },
      (a: any) => ownerRules(a, today),
      [
        {
          field: "merchant.owner_one.ownership_percentage",
          code: "ownership_under_25",
          message: "List owners who together hold at least 25% of the business.",
        },
      ],
    ],
    [
      "future",
      (a: any) => (a.business_established_date = "2026-11-23"),
      (a: any) => businessRules(a, today),
      [
        {
          field: "merchant.business_established_date",
          code: "date_in_future",
          message: "The business cannot be established in the future.",
        },
      ],
    ],
    [
      "state",
      (a: any) => (a.legal_business_address.state = "XX"),
      (a: any) => businessRules(a, today),
      [
        {
          field: "merchant.legal_business_address.state",
          code: "state_invalid",
          message: "Use a US state or territory code such as CA.",
        },
      ],
    ],
    [
      "zip",
      (a: any) => (a.owner_two.home_address.zip = "1234"),
      (a: any) => businessRules(a, today),
      [{ field: "merchant.owner_two.home_address.zip", code: "zip_invalid", message: "Use a 5 or 9 digit ZIP code." }],
    ],
    [
      "mix",
      (a: any) => (a.current_sales.sales_percentage.moto_percentage = "50"),
      salesRules,
      [
        {
          field: "merchant.current_sales.sales_percentage",
          code: "sales_mix_not_100",
          message: "How customers pay must add up to 100%.",
        },
      ],
    ],
    [
      "average",
      (a: any) => (a.current_sales.average_ticket_value = "999999"),
      salesRules,
      [
        {
          field: "merchant.current_sales.average_ticket_value",
          code: "average_above_highest",
          message: "The average sale cannot be larger than the largest sale.",
        },
      ],
    ],
  ])("%s", (_name, change, rule, expected) => {
    const a = app();
    change(a);
    expect((rule as (a: any) => unknown)(a)).toEqual(expected);
  });
});

describe("edges", () => {
  test("account numbers: 4 to 17 digits, nothing else", () => {
    for (const [n, ok] of [
      ["1234", true],
      ["12345678901234567", true],
      ["123", false],
      ["123456789012345678", false],
      ["x1234", false],
      ["1234x", false],
    ] as const) {
      const a = app();
      a.bank_account.account_number = n;
      a.bank_account.account_number_confirm = n;
      expect(bankAccountRules(a), n).toEqual(ok ? [] : [expect.objectContaining({ code: "account_number_invalid" })]);
    }
  });

  test("SSN, ITIN and TIN must be exactly nine digits", () => {
    expect(ssnValid("1234567890")).toBe(false);
    expect(ssnValid("x123456789")).toBe(false);
    expect(ssnValid("123456789x")).toBe(false);
    expect(itinValid("9123456789")).toBe(false);
    expect(itinValid("x912345678")).toBe(false);
    expect(itinValid("912345678")).toBe(true);
    for (const tin of ["1234567890", "x12345678", "12345678x"])
      expect(tinRules({ ...app(), tin }), tin).toEqual([expect.objectContaining({ code: "tin_invalid" })]);
  });

  test("an SSN or ITIN starting with 00 is judged by its own rules, not the EIN's", () => {
    // 001-23-4567 is a valid SSN (area 001): the EIN's "00" rule must not touch it.
    expect(tinRules({ ...app(), business_type: "Sole Proprietor", tin_type: "SSN", tin: "001234567" })).toEqual([]);
    expect(tinRules({ ...app(), business_type: "Sole Proprietor", tin_type: "SSN", tin: "000234567" })).toEqual([
      expect.objectContaining({ code: "ssn_invalid" }),
    ]);
  });

  test("age: the birthday itself counts, the day before does not", () => {
    expect(ageOn("2008-11-22", today)).toBe(18);
    expect(ageOn("2008-11-23", today)).toBe(17);
    expect(ageOn("2008-12-01", today)).toBe(17);
    expect(ageOn("2008-10-30", today)).toBe(18);
    const a = app();
    a.owner_one.date_of_birth = "2008-11-22";
    expect(ownerRules(a, today)).toEqual([]);
  });

  test("a business established today is fine", () => {
    expect(businessRules({ ...app(), business_established_date: "2026-11-22" }, today)).toEqual([]);
  });

  test("ZIP: 5 digits, or 9 with an optional dash; nothing around them", () => {
    for (const [zip, ok] of [
      ["94107", true],
      ["94107-1234", true],
      ["941071234", true],
      ["94107--1234", false],
      ["x94107", false],
      ["94107x", false],
      ["9410", false],
    ] as const) {
      const a = app();
      a.legal_business_address.zip = zip;
      expect(businessRules(a, today).length, zip).toBe(ok ? 0 : 1);
    }
  });

  test("a missing DBA address is not checked", () => {
    const a = app();
    delete a.dba_address;
    expect(businessRules(a, today)).toEqual([]);
  });

  test("every US state, DC and the territories are accepted (an independent list)", () => {
    const codes =
      "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP".split(
        " ",
      );
    expect([...US_STATES].sort()).toEqual([...codes].sort());
  });

  test("the telemarketing category and each high-risk subcategory go to manual review (an independent list)", () => {
    const subcategories = [
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
    ];
    for (const subcategory of subcategories) {
      const a = app();
      a.main_product.subcategory = subcategory;
      expect(decide(a, { sandbox: false, today }), subcategory).toEqual({
        outcome: "manual_review",
        reason: `high-risk subcategory: ${subcategory}`,
      });
    }
    const t = app();
    t.main_product.category = "Telemarketing and Direct Marketing";
    expect(decide(t, { sandbox: false, today }).outcome).toBe("manual_review");
  });

  test("sandbox magic TINs decide, with their exact reasons; outside the sandbox they do not", () => {
    const withTin = (tin: string) => ({ ...app(), tin });
    const sandbox = { sandbox: true, today };
    expect(decide(withTin("000000000"), sandbox)).toEqual({ outcome: "approve" });
    expect(decide(withTin("111111111"), sandbox)).toEqual({
      outcome: "request_information",
      findings: [
        {
          field: "merchant.tin",
          code: "tin_unverified",
          message: "We could not verify the tax ID. Check it and enter it again.",
        },
      ],
    });
    expect(decide(withTin("222222222"), sandbox)).toEqual({
      outcome: "manual_review",
      reason: "sandbox magic TIN 222222222",
    });
    expect(decide(withTin("999999999"), sandbox)).toEqual({
      outcome: "decline",
      reason: "sandbox magic TIN 999999999",
    });
    expect(decide(withTin("999999999"), { sandbox: false, today })).toEqual({ outcome: "approve" });
  });
});
