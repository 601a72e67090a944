import type { Frame } from "@playwright/test";

import { application } from "./helpers";
import type { Page } from "./test";

// The wizard's steps as a merchant fills them: on the hosted page, or inside an ISV's page (the
// embedded onboarding component's frame).

export type Surface = Page | Frame;
const app = application();

export async function fillBusiness(page: Surface) {
  await page.getByLabel("Legal business name").fill(app.legal_business_name);
  await page.getByLabel("Doing business as (DBA)").fill(app.doing_business_as);
  await page.getByLabel("Business type").selectOption(app.business_type);
  await page.getByLabel("Tax ID type").selectOption("EIN");
  await page.getByLabel("Tax ID number").fill(app.tin);
  await page.getByLabel("Date the business was established").fill(app.business_established_date);
  await page.getByLabel("Business phone number", { exact: true }).fill("(415) 555-0123");
  const legal = page.getByRole("group", { name: "Legal business address" });
  await legal.getByLabel("Street address").fill(app.legal_business_address.address);
  await legal.getByLabel("City").fill(app.legal_business_address.city);
  await legal.getByLabel("State").selectOption(app.legal_business_address.state);
  await legal.getByLabel("ZIP code").fill(app.legal_business_address.zip);
  await page.getByLabel("Contact name").fill(app.main_contact_person.name);
  await page.getByLabel("Contact email").fill(app.main_contact_person.email);
}

export async function fillOwner(page: Surface, n: number, owner: any) {
  const group = page.getByRole("group", { name: `Owner ${n}`, exact: true });
  await group.getByLabel("First name").fill(owner.first_name);
  await group.getByLabel("Last name").fill(owner.last_name);
  await group.getByLabel("Job title").selectOption(owner.job_title);
  await group.getByLabel("Ownership percentage").fill(owner.ownership_percentage);
  await group.getByLabel("Email").fill(owner.email);
  await group.getByLabel("Date of birth").fill(owner.date_of_birth);
  await group.getByLabel("Social Security number").fill(owner.ssn);
  await group.getByLabel("Street address").fill(owner.home_address.address);
  await group.getByLabel("City").fill(owner.home_address.city);
  await group.getByLabel("State").selectOption(owner.home_address.state);
  await group.getByLabel("ZIP code").fill(owner.home_address.zip);
}
