import fs from "node:fs";

import type { Frame } from "@playwright/test";

import { application } from "./helpers";
import type { Page } from "./test";

// The wizard's steps as a merchant fills them: on the hosted page, or inside an ISV's page (the
// embedded onboarding component's frame).

export type Surface = Page | Frame;
const app = application();

type Messages = { [key: string]: string | Messages };
const messages = (locale: string) =>
  JSON.parse(fs.readFileSync(`lib/i18n/messages/${locale}.json`, "utf8")) as Messages;
const flat = (messages: Messages, prefix = ""): [string, string][] =>
  Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value] as [string, string]] : flat(value, `${prefix}${key}.`),
  );
const englishKeys = new Map(
  flat(messages("en"))
    .map(([key, value]) => [value, key] as const)
    .reverse(),
);
const spanish = new Map(flat(messages("es")));

/**
 * The words a page shows for an English one, in `locale`: the message with that English text, as
 * the Spanish messages say it (the journeys read the page as a Spanish reader would, without a
 * second copy of the labels). Throws for a text no message has.
 */
export function wordsFor(locale: "en" | "es") {
  return (english: string, values: Record<string, string | number> = {}) => {
    const key = englishKeys.get(english);
    if (key === undefined) throw new Error(`no message says "${english}"`);
    const text = locale === "en" ? english : spanish.get(key);
    if (text === undefined) throw new Error(`no Spanish for ${key}`);
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
  };
}
const english = wordsFor("en");

export async function fillBusiness(page: Surface, w = english) {
  await page.getByLabel(w("Legal business name")).fill(app.legal_business_name);
  await page.getByLabel(w("Doing business as (DBA)")).fill(app.doing_business_as);
  await page.getByLabel(w("Business type")).selectOption(app.business_type);
  await page.getByLabel(w("Tax ID type")).selectOption("EIN");
  await page.getByLabel(w("Tax ID number")).fill(app.tin);
  await page.getByLabel(w("Date the business was established")).fill(app.business_established_date);
  await page.getByLabel(w("Business phone number"), { exact: true }).fill("(415) 555-0123");
  const legal = page.getByRole("group", { name: w("Legal business address") });
  await legal.getByLabel(w("Street address")).fill(app.legal_business_address.address);
  await legal.getByLabel(w("City")).fill(app.legal_business_address.city);
  await legal.getByLabel(w("State")).selectOption(app.legal_business_address.state);
  await legal.getByLabel(w("ZIP code")).fill(app.legal_business_address.zip);
  await page.getByLabel(w("Contact name")).fill(app.main_contact_person.name);
  await page.getByLabel(w("Contact email")).fill(app.main_contact_person.email);
}

export async function fillOwner(page: Surface, n: number, owner: any, w = english) {
  const group = page.getByRole("group", { name: w("Owner {n}", { n }), exact: true });
  await group.getByLabel(w("First name"), { exact: true }).fill(owner.first_name);
  await group.getByLabel(w("Last name")).fill(owner.last_name);
  await group.getByLabel(w("Job title")).selectOption(owner.job_title);
  await group.getByLabel(w("Ownership percentage")).fill(owner.ownership_percentage);
  await group.getByLabel(w("Email")).fill(owner.email);
  await group.getByLabel(w("Date of birth")).fill(owner.date_of_birth);
  await group.getByLabel(w("Social Security number")).fill(owner.ssn);
  await group.getByLabel(w("Street address")).fill(owner.home_address.address);
  await group.getByLabel(w("City")).fill(owner.home_address.city);
  await group.getByLabel(w("State")).selectOption(owner.home_address.state);
  await group.getByLabel(w("ZIP code")).fill(owner.home_address.zip);
}
