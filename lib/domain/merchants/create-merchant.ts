import { and, eq, sql } from "drizzle-orm";

import { currentActor } from "../../audit/actor";
import { newPublishableKey } from "../../auth/secrets";
import { clock } from "../../clock";
import { rowsOf } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { one } from "../../db/one";
import { compiledStatement } from "../../db/prepared";
import type { AccountRow, MerchantRow } from "../../db/schema";
import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError, invalidFields } from "../../errors";
import { createId } from "../../ids";
import type { PartialApplication } from "../../schemas/merchant";
import { serializeMerchant } from "../../serializers/merchant";
import { pricingOf } from "../accounts/isv-facts";
import { eventClauses } from "../events/record-event";
import { defaultPayoutSettings } from "../payouts/settings";
import { normalizePhone } from "./application";
import { mergeApplicationChange } from "./change-application";
import { requirementsFor } from "./requirements";
import { INITIAL_STATUS } from "./status";

export type CreateMerchantInput = {
  phone: string;
  device?: { imei: string };
  merchant?: PartialApplication;
  agent?: number;
};

/**
 * POST /v1/merchants (docs/reference.md section 4). An IMEI the ISV already registered returns that
 * merchant unchanged: a unique index decides, so concurrent creates with one new IMEI make one
 * merchant. An IMEI a merchant typed in its own onboarding never does (it would hand the ISV's new
 * business that merchant's record): 400 `imei_in_use` naming it, and nothing is created.
 */
export async function createMerchant(
  db: Db,
  isv: AccountRow,
  input: CreateMerchantInput,
): Promise<{ row: MerchantRow; created: boolean }> {
  const isvAccountId = isv.id;
  const imei = input.device?.imei;
  if (imei) {
    const existing = await findByImei(db, isvAccountId, imei);
    if (existing) return { row: existing, created: false };
  }

  const prefill = { ...(input.merchant ?? {}) } as PartialApplication;
  // No capabilities given: the ISV's defaults apply (its types; every option from default_capabilities).
  if (!prefill.capabilities)
    prefill.capabilities = { types: pricingOf(isv).types } as PartialApplication["capabilities"];
  const { application, errors } = mergeApplicationChange({}, { merchant: prefill, phone: input.phone }, "isv");
  if (errors.length) throw invalidFields(errors);

  const now = clock.now();
  const id = createId("mer");
  const values = {
    id,
    isvAccountId,
    phone: normalizePhone(input.phone),
    agent: input.agent ?? null,
    status: INITIAL_STATUS,
    application,
    defaultCapabilities: pricingOf(isv),
    payment: {
      tokenizer_publishable_key: newPublishableKey(env.APP_ENV === "production"),
      tokenizer_active: false,
      terminal_id: null,
    },
    deviceId: imei ? createId("dev") : null,
    deviceImei: imei ?? null,
    deviceImeiSource: imei ? ("isv" as const) : null,
    deviceImeiStatus: imei ? ("UNKNOWN" as const) : null,
    deviceSelection: imei ? ("selected" as const) : null,
    deviceCreatedAt: imei ? now : null,
    deviceUpdatedAt: imei ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  // The row as it will be stored: every column is decided here but the lead id, which the
  // database numbers (its sequence) in the same statement.
  const draft: MerchantRow = {
    ...values,
    leadId: 0,
    deactivated: false,
    changeReportsValidAfter: null,
    pendingContactEmail: null,
    requirements: null,
    paymentKeys: null,
    deviceCatalogId: null,
    agreement: null,
    verification: [],
    underwriting: null,
    merchantAccountId: null,
    submittedAt: null,
    approvedAt: null,
  };
  try {
    // One statement (atomic by itself): number the lead, insert the merchant, record
    // `merchant.created` (its payload given the lead id in SQL) with its deliveries and their jobs.
    const result = await createStatement(db, {
      ...values,
      application: JSON.stringify(values.application),
      defaultCapabilities: JSON.stringify(values.defaultCapabilities),
      payment: JSON.stringify(values.payment),
      eventId: createId("evt"),
      // A new merchant has the default payout settings (no row until one changes).
      event: JSON.stringify(serializeMerchant(draft, isv, requirementsFor(draft, isv), defaultPayoutSettings)),
      // Its audit entry, in the same statement (lib/audit/actor.ts).
      actor: JSON.stringify(currentActor() ?? null),
    });
    const lead = one(rowsOf<{ lead_id: string | number }>(result));
    return { row: { ...draft, leadId: Number(lead.lead_id) }, created: true };
  } catch (error) {
    if (imei && isUniqueViolation(error)) {
      const existing = await findByImei(db, isvAccountId, imei);
      if (existing) return { row: existing, created: false };
    }
    throw error;
  }
}

const p = (name: string) => sql.placeholder(name);
/**
 * One statement (atomic by itself): number the lead, insert the merchant, record `merchant.created`
 * (its payload given the lead id in SQL) with its deliveries and their jobs. Built once: its text
 * is the same for every merchant.
 */
const createStatement = compiledStatement(
  "create_merchant",
  () => sql`
    with new_lead as (select nextval(pg_get_serial_sequence('merchants', 'lead_id')) as lead_id),
    new_merchant as (
      insert into merchants (id, isv_account_id, lead_id, phone, agent, lead_onboarding_status, application, default_capabilities, payment,
        device_id, device_imei, device_imei_source, device_imei_status, device_selection, device_created_at, device_updated_at, created_at, updated_at)
      values (${p("id")}, ${p("isvAccountId")}, (select lead_id from new_lead), ${p("phone")}, ${p("agent")}::integer, ${p("status")},
        ${p("application")}::jsonb, ${p("defaultCapabilities")}::jsonb, ${p("payment")}::jsonb,
        ${p("deviceId")}, ${p("deviceImei")}, ${p("deviceImeiSource")}, ${p("deviceImeiStatus")}, ${p("deviceSelection")},
        ${p("deviceCreatedAt")}::timestamptz, ${p("deviceUpdatedAt")}::timestamptz, ${p("createdAt")}::timestamptz, ${p("updatedAt")}::timestamptz)
    ),
    ${eventClauses({
      id: p("eventId"),
      accountId: p("isvAccountId"),
      type: "merchant.created",
      objectId: p("id"),
      data: sql`jsonb_set(${p("event")}::jsonb, '{lead_id}', to_jsonb((select lead_id from new_lead)))`,
      actor: p("actor"),
    })}
    select lead_id from new_lead`,
);

/** The ISV's merchant with this IMEI, when the ISV registered it; a merchant's own entry is refused. */
async function findByImei(db: Db, isvAccountId: string, imei: string) {
  const [row] = await db
    .select()
    .from(merchants)
    .where(and(eq(merchants.isvAccountId, isvAccountId), eq(merchants.deviceImei, imei)));
  if (row?.deviceImeiSource === "merchant")
    throw new AppError(
      "imei_in_use",
      `This IMEI was entered by merchant ${row.id} in its own onboarding: correct that merchant's device, or use another IMEI`,
      {
        param: "device.imei",
      },
    );
  return row ?? null;
}
