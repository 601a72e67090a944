import { describe, expect, test } from "vitest";
import { firstIncompleteStep, listedSteps, resolveStep, stepOfField, stepProgress, type StepId } from "./steps";

const session = (incomplete: StepId[], requested: string[] = []) => ({
  steps: stepProgress(
    incomplete.map((id) =>
      id === "device"
        ? "device"
        : id === "agreement"
          ? "agreement"
          : `merchant.${{ business: "tin", owners: "owner_one.ssn", bank: "bank_account.routing_number", product: "main_product", sales: "current_sales" }[id as string]}`,
    ),
  ),
  requirements: { errors: requested.map((field) => ({ field })) },
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
});
