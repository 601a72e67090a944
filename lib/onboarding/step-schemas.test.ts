import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

import en from "../i18n/messages/en.json" with { type: "json" };
import es from "../i18n/messages/es.json" with { type: "json" };
import * as server from "../schemas/application";
import { ruleMessages } from "../schemas/application-rules";
import example from "../schemas/examples/merchant-application.json" with { type: "json" };
import { ownersSchema, stepSchema } from "./step-schemas";

// The rules are written once (lib/schemas/application-rules.ts) and built twice: with zod on the
// server, with zod/mini in the browser. The two builds must judge every value alike.
const issues = (r: {
  success: boolean;
  error?: { issues: { code: string; path: PropertyKey[]; message: string }[] };
}) =>
  (r.error?.issues ?? [])
    // The wizard says these rules' messages by key (shown translated): the API's words for the same key.
    .map((i) => ({
      ...i,
      message: ruleMessages[i.message.replace(/^underwriting\./, "") as keyof typeof ruleMessages] ?? i.message,
    }))
    .map((i) => `${i.path.join(".")} ${i.code} ${i.message}`)
    .sort();

const owner = example.owner_one;
const variants: Record<string, unknown>[] = [
  {},
  { ...owner },
  { ...owner, first_name: "  " },
  { ...owner, first_name: "x".repeat(61) },
  { ...owner, email: "not-an-email" },
  { ...owner, email: `${"a".repeat(250)}@example.com` },
  { ...owner, date_of_birth: "1990-02-30" },
  { ...owner, date_of_birth: "30/01/1990" },
  { ...owner, ownership_percentage: "100.5" },
  { ...owner, ownership_percentage: "25%" },
  { ...owner, ssn: "*****6789" },
  { ...owner, ssn: "12345678" },
  { ...owner, job_title: "King" },
  { ...owner, contact_phone: "555" },
  { ...owner, home_address: { ...owner.home_address, state: "ca", zip: "1234" } },
  { ...owner, unknown_field: "x" },
];

describe("the wizard's schemas (zod/mini) and the API's (zod) are the same rules", () => {
  test("an owner: the same issues, codes, paths and messages for every value", () => {
    for (const v of variants) {
      const wizard = ownersSchema(() => 1).safeParse({ owner_one: v });
      const api = server.ownerSchema.safeParse(v);
      const wizardIssues = issues(wizard)
        .filter((i) => !i.includes("underwriting."))
        .map((i) => i.replace(/^owner_one\.?/, ""));
      expect(wizardIssues, JSON.stringify(v)).toEqual(issues(api));
    }
  });

  test("bank, product and sales: what the API refuses, the wizard refuses alike", () => {
    const bank = example.bank_account;
    const cases: [keyof typeof example, "bank" | "product" | "sales", unknown][] = [
      ["bank_account", "bank", bank],
      ["bank_account", "bank", { ...bank, routing_number: "12345678" }],
      ["bank_account", "bank", { ...bank, account_number: "12" }],
      ["main_product", "product", example.main_product],
      ["main_product", "product", { ...example.main_product, website: "not a site", category: "Toys" }],
      ["main_product", "product", { ...example.main_product, subcategory: "Nothing" }],
      ["current_sales", "sales", example.current_sales],
      ["current_sales", "sales", { ...example.current_sales, average_ticket_value: "12.345" }],
    ];
    const serverOf = {
      bank_account: server.bankAccountSchema,
      main_product: server.mainProductSchema,
      current_sales: server.currentSalesSchema,
    } as const;
    for (const [field, step, value] of cases) {
      const api = issues(serverOf[field as keyof typeof serverOf].safeParse(value)).map((i) => `${field}.${i}`);
      const wizard = issues(stepSchema(step).safeParse({ [field]: value })).filter((i) => !i.includes("underwriting."));
      expect(wizard, `${field} ${JSON.stringify(value)}`).toEqual(api);
    }
  });
});

// The wizard's frame and its forms must not load zod (the full library, about 30 KB of script):
// everything they import, followed from file to file, imports only zod/mini.
describe("the browser's side of the rules", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const resolve = (from: string, spec: string) => {
    const base = spec.startsWith("@/")
      ? path.join(root, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(from), spec)
        : null;
    if (!base) return null;
    return [".ts", ".tsx", "/index.ts"].map((ext) => base + ext).find((f) => existsSync(f)) ?? null;
  };
  function imports(entry: string) {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, typeOnly, spec] of readFileSync(file, "utf8").matchAll(
        /^import (type )?[^;]*? from "([^"]+)"/gms,
      )) {
        if (typeOnly) continue;
        const local = resolve(file, spec!);
        if (local) visit(local);
        else packages.add(spec!);
      }
    };
    visit(path.join(root, entry));
    return packages;
  }

  test("the wizard and every step import zod/mini, never zod", () => {
    const entries = [
      "components/onboarding/wizard.tsx",
      ...["business", "owners", "bank", "product", "sales", "device", "review", "agreement"].map(
        (s) => `components/onboarding/steps/${s}-step.tsx`,
      ),
    ];
    for (const entry of entries) {
      const packages = imports(entry);
      expect(
        [...packages].filter((p) => p === "zod" || p.startsWith("zod/v4") || p === "zod/v3"),
        entry,
      ).toEqual([]);
    }
    expect(imports("components/onboarding/steps/business-step.tsx")).toContain("zod/mini");
  });
});

describe("the wizard says what is wrong in the reader's words", () => {
  test("each format rule's message is a key both languages have", () => {
    const bank = example.bank_account;
    const messages = (value: unknown) =>
      (stepSchema("bank").safeParse({ bank_account: value }).error?.issues ?? []).map((i) => i.message);
    expect(messages({ ...bank, routing_number: "1234" })).toContain("underwriting.routing_format");
    expect(messages({ ...bank, account_number: "12" })).toContain("underwriting.account_format");
    for (const messagesOf of [en, es] as Record<string, any>[])
      for (const code of Object.keys(ruleMessages)) expect(messagesOf.underwriting[code], code).toBeTruthy();
  });
});
