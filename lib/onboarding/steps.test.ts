import { describe, expect, test } from "vitest";

import example from "../schemas/examples/merchant-application.json" with { type: "json" };
import { stepSchema } from "./step-schemas";
import {
  firstIncompleteStep,
  inPortal,
  isReachable,
  listedSteps,
  onboardingSteps,
  resolveStep,
  stepFields,
  type StepId,
  stepIds,
  stepOfField,
  stepProgress,
} from "./steps";

const session = (incomplete: StepId[], requested: string[] = []) => ({
  steps: stepProgress(
    incomplete.map((id) =>
      id === "device"
        ? "device"
        : id === "agreement"
          ? "agreement"
          : `merchant.${{ business: "tin", owners: "owner_one.ssn", bank: "bank_account.routing_number", product: "main_product", sales: "current_sales" }[id as string]}`,
    ),
    requested,
  ),
});

describe("the step registry", () => {
  test.each([
    ["merchant.bank_account.routing_number", "bank"],
    ["merchant.owner_two.home_address.zip", "owners"],
    ["merchant.tin_type", "business"],
    ["merchant.legal_business_address", "business"],
    ["merchant.current_sales.sales_percentage", "sales"],
    ["device", "device"],
    ["device.catalog_id", "device"],
    ["device_selection", "device"],
    ["xmerchant.bank_account", null],
    ["merchant.owner_one[0]", "owners"],
    ["agreement", "agreement"],
    ["merchant.nothing_like_this", null],
  ])("stepOfField(%s) is %s", (param, step) => {
    expect(stepOfField(param)).toBe(step);
  });

  test("stepProgress: review needs every data step; the agreement needs the signature too", () => {
    expect(
      stepProgress(["merchant.bank_account.account_number"])
        .filter((s) => !s.complete)
        .map((s) => s.id),
    ).toEqual(["bank", "review", "agreement"]);
    expect(
      stepProgress(["agreement"])
        .filter((s) => !s.complete)
        .map((s) => s.id),
    ).toEqual(["agreement"]);
    expect(stepProgress([]).every((s) => s.complete)).toBe(true);
  });

  test("resolveStep clamps a deep link to the first incomplete step", () => {
    const s = session(["bank", "sales"]);
    expect(firstIncompleteStep(s)).toBe("bank");
    expect(resolveStep(s, "business")).toEqual({ step: "business", redirect: false });
    expect(resolveStep(s, "bank")).toEqual({ step: "bank", redirect: false });
    expect(resolveStep(s, "product")).toEqual({ step: "bank", redirect: true });
    expect(resolveStep(s, "agreement")).toEqual({ step: "bank", redirect: true });
    expect(resolveStep(s, "nope")).toBeNull();
  });

  test("in the portal only the requested steps (with review and agreement) are listed and opened", () => {
    const s = session(["agreement"], ["merchant.bank_account.routing_number"]);
    expect(listedSteps(s)).toEqual(["bank", "review", "agreement"]);
    expect(resolveStep(s, "business")).toEqual({ step: "agreement", redirect: true });
    expect(resolveStep(s, "bank")).toEqual({ step: "bank", redirect: false });
    expect(resolveStep(s, "device")).toEqual({ step: "device", redirect: false });
  });

  test("a step asked for stays listed once answered: the portal's counter does not jump to every step", () => {
    // The bank step answered (nothing missing but the signature), the round's request still known.
    const answered = session(["agreement"], ["merchant.bank_account.routing_number"]);
    expect(listedSteps(answered)).toEqual(["bank", "review", "agreement"]);
    expect(inPortal(answered)).toBe(true);
    expect(answered.steps.find((st) => st.id === "bank")).toEqual({ id: "bank", complete: true, requested: true });
    // Nothing asked: the wizard, every step.
    expect(listedSteps(session(["bank"]))).toEqual(stepIds);
    expect(inPortal(session(["bank"]))).toBe(false);
  });
});

describe("the step schemas (the wizard's forms)", () => {
  const app = structuredClone(example) as any;
  const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    (result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

  test("business takes exactly the business step's fields", () => {
    const fields = Object.fromEntries(stepFields("business").map((f) => [f, app[f]]));
    expect(stepSchema("business").safeParse(fields).success).toBe(true);
    expect(Object.keys(stepSchema("business").shape).sort()).toEqual([...stepFields("business")].sort());
  });

  test("bank: the routing checksum and the confirmation, at their fields, with underwriting's codes", () => {
    const bank = stepSchema("bank");
    expect(bank.safeParse({ bank_account: app.bank_account }).success).toBe(true);
    expect(issues(bank.safeParse({ bank_account: { ...app.bank_account, routing_number: "021000022" } }))).toEqual([
      ["bank_account.routing_number", "underwriting.routing_number_invalid"],
    ]);
    expect(
      issues(bank.safeParse({ bank_account: { ...app.bank_account, account_number_confirm: "000123456788" } })),
    ).toEqual([["bank_account.account_number_confirm", "underwriting.account_number_mismatch"]]);
    expect(bank.safeParse({}).success).toBe(false);
  });

  test("product needs the main product", () => {
    expect(stepSchema("product").safeParse({ main_product: app.main_product }).success).toBe(true);
    expect(stepSchema("product").safeParse({}).success).toBe(false);
  });

  test("sales: the mix adds to 100 and the average is not above the largest sale", () => {
    const sales = stepSchema("sales");
    expect(sales.safeParse({ current_sales: app.current_sales }).success).toBe(true);
    const mix = { ...app.current_sales.sales_percentage, card_swipe_percentage: "1" };
    expect(issues(sales.safeParse({ current_sales: { ...app.current_sales, sales_percentage: mix } }))).toEqual([
      ["current_sales.sales_percentage.card_swipe_percentage", "underwriting.sales_mix_not_100"],
    ]);
    const big = { ...app.current_sales, average_ticket_value: "999999", highest_amount_to_date: "10" };
    expect(issues(sales.safeParse({ current_sales: big }))).toEqual([
      ["current_sales.average_ticket_value", "underwriting.average_above_highest"],
    ]);
    expect(sales.safeParse({}).success).toBe(false);
  });

  test("every data step owns fields; device, review and agreement own none; every step is reachable once all are complete", () => {
    expect(onboardingSteps.filter((s) => s.fields.length === 0).map((s) => s.id)).toEqual([
      "device",
      "review",
      "agreement",
    ]);
    const done = { steps: stepProgress([]) };
    expect(firstIncompleteStep(done)).toBe("agreement");
    expect(onboardingSteps.every((s) => isReachable(done, s.id))).toBe(true);
  });
});
