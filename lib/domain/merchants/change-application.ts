import { and, eq, ne } from "drizzle-orm";

import { clock } from "../../clock";
import type { AccountRow, MerchantRow } from "../../db/schema";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { type FieldError, invalidFields } from "../../errors";
import { createId } from "../../ids";
import type { DeviceCatalogEntry } from "../../schemas/account";
import type { PartialApplication } from "../../schemas/merchant";
import { documentAnsweredBy } from "../../verification/checks";
import { isRealPhone, mergeApplication, normalizePhone, phoneError } from "./application";
import { capabilityOverrideErrors } from "./capability-overrides";
import { recordMerchantEvent } from "./merchant-event";
import { withAnswered } from "./requirements";
import { assertOpen, isOpen, moveMerchant } from "./status";
import { writeMerchant } from "./write-merchant";

// The one writer of a merchant's application: POST /v1/merchants, PATCH /v1/merchants/{id} and
// PATCH /v1/onboarding/session all come through here, each as a writer with its own list of fields.

type Json = Record<string, unknown>;

/** Who is writing: the ISV (create and PATCH) or the merchant in its onboarding session. */
export type ApplicationWriter = "isv" | "merchant";

// Pricing and the bank check's result are the ISV's (or the platform's) to set, never the merchant's.
const notWritableByMerchant = ["capabilities", "fees", "bank_account_results"] as const;

export type DeviceChange = { imei: string } | { catalog_id: string } | { skipped: true };

export type ApplicationChange = {
  merchant?: PartialApplication;
  phone?: string;
  agent?: number | null;
  device?: DeviceChange;
};

type Columns = Partial<typeof merchants.$inferInsert>;

/**
 * Pure part of a change: what the writer may not set, then merge (objects merge, `null` removes,
 * phones to E.164, sensitive values encrypted). Returns the new application and every problem.
 */
export function mergeApplicationChange(
  stored: Json,
  change: { merchant?: Json; phone?: ApplicationChange["phone"] },
  writer: ApplicationWriter,
) {
  const errors: FieldError[] = [];
  let application = stored;
  const patch = change.merchant;
  if (patch) {
    errors.push(...capabilityOverrideErrors(patch));
    if (writer === "merchant") {
      for (const key of notWritableByMerchant) {
        if (patch[key] !== undefined) {
          errors.push({
            param: `merchant.${key}`,
            code: "parameter_not_allowed",
            message: `merchant.${key} is set by the platform, not in the onboarding session`,
          });
        }
      }
    }
    const merged = mergeApplication(stored, patch);
    errors.push(...merged.errors);
    application = merged.next;
  }
  if (change.phone !== undefined && !isRealPhone(change.phone)) errors.unshift(phoneError("phone"));
  return { application, errors };
}

export type DeviceRules = { catalog: DeviceCatalogEntry[]; skippable: boolean };

/** The device columns a change sets, or the problem with it. */
async function deviceColumns(
  tx: DbOrTx,
  merchant: MerchantRow,
  device: DeviceChange,
  rules: DeviceRules | undefined,
  writer: ApplicationWriter,
): Promise<{ set: Columns; error?: FieldError }> {
  const now = clock.now();
  const chosen = {
    deviceId: merchant.deviceId ?? createId("dev"),
    deviceImeiStatus: "UNKNOWN" as const,
    deviceSelection: "selected" as const,
    deviceCreatedAt: merchant.deviceCreatedAt ?? now,
    deviceUpdatedAt: now,
  };
  if ("catalog_id" in device) {
    const catalog = rules?.catalog ?? [];
    if (!catalog.some((d) => d.id === device.catalog_id)) {
      return {
        set: {},
        error: {
          param: "device.catalog_id",
          code: "parameter_invalid",
          message: `device.catalog_id must be one of: ${catalog.map((d) => d.id).join(", ")}`,
        },
      };
    }
    return { set: { ...chosen, deviceCatalogId: device.catalog_id } };
  }
  if ("imei" in device) {
    const [taken] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(
        and(
          eq(merchants.isvAccountId, merchant.isvAccountId),
          eq(merchants.deviceImei, device.imei),
          ne(merchants.id, merchant.id),
        ),
      );
    if (taken)
      return {
        set: {},
        error: {
          param: "device.imei",
          code: "imei_in_use",
          message: "This device is already registered to another merchant",
        },
      };
    return { set: { ...chosen, deviceImei: device.imei, deviceImeiSource: writer === "isv" ? "isv" : "merchant" } };
  }
  if (!rules?.skippable)
    return {
      set: {},
      error: {
        param: "device_selection",
        code: "parameter_invalid",
        message: "Device selection cannot be skipped for this application",
      },
    };
  return {
    set: {
      deviceSelection: "skipped",
      ...(merchant.deviceImei
        ? {}
        : {
            deviceId: null,
            deviceCatalogId: null,
            deviceImeiStatus: null,
            deviceCreatedAt: null,
            deviceUpdatedAt: null,
          }),
    },
  };
}

/** Every leaf path a PATCH body sets, e.g. merchant.bank_account.routing_number. */
export function touchedPaths(value: Json, prefix: string): string[] {
  return Object.entries(value).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) ? touchedPaths(v as Json, `${prefix}.${k}`) : [`${prefix}.${k}`],
  );
}

/** Underwriting's requests that the change answers are dropped (underwriting checks again on submit). */
function remainingRequirements(
  requirements: MerchantRow["requirements"],
  touched: string[],
  open: boolean,
): MerchantRow["requirements"] {
  return withAnswered(
    requirements,
    (field) =>
      touched.some((t) => t === field || t.startsWith(`${field}.`) || field.startsWith(`${t}.`)) ||
      documentAnsweredBy(field, touched),
    { open },
  );
}

/**
 * Changes an open application in the caller's transaction (the merchant row locked by the caller):
 * validates everything at once (nothing is saved from an invalid change), clears the agreement
 * signature when anything it was generated from changes (application, pricing, fees, device),
 * drops the requirements the change answers, and records `merchant.updated`. `alsoSet` carries
 * columns the caller may change at any time (deactivated, automatic_payouts).
 */
export async function changeApplication(
  tx: DbOrTx,
  input: {
    merchant: MerchantRow;
    isv: AccountRow;
    writer: ApplicationWriter;
    change: ApplicationChange;
    deviceRules?: DeviceRules;
    alsoSet?: Columns;
    /** Fields the caller changed elsewhere in the same transaction (the payout settings), named in the event. */
    alsoChanged?: string[];
  },
): Promise<MerchantRow> {
  const { merchant, isv, writer, change } = input;
  assertOpen(merchant, "The merchant's onboarding information can change");
  const { application, errors } = mergeApplicationChange(merchant.application, change, writer);
  let device: Columns = {};
  if (change.device) {
    const result = await deviceColumns(tx, merchant, change.device, input.deviceRules, writer);
    if (result.error) errors.push(result.error);
    device = result.set;
  }
  if (errors.length) throw invalidFields(errors);

  const touched = [
    ...(change.merchant ? touchedPaths(change.merchant as Json, "merchant") : []),
    ...(change.device ? ["device"] : []),
  ];
  const unsigns = change.merchant !== undefined || change.device !== undefined;
  const set: Columns = {
    ...input.alsoSet,
    application,
    ...device,
    ...(change.phone !== undefined ? { phone: normalizePhone(change.phone) } : {}),
    ...(change.agent !== undefined ? { agent: change.agent } : {}),
    // The agreement was generated from the application, the pricing and the device: a change unsigns it.
    ...(unsigns ? { agreement: null } : {}),
    requirements: remainingRequirements(merchant.requirements, touched, isOpen(merchant.status)),
    updatedAt: clock.now(),
  };
  // The merchant saving its first answers has started onboarding, whichever way it got in.
  const updated =
    writer === "merchant" && merchant.status === "NOT_STARTED"
      ? await moveMerchant(tx, merchant.id, "startOnboarding", set)
      : await writeMerchant(tx, merchant.id, set);
  await recordMerchantEvent(tx, "merchant.updated", updated, {
    isv: isv,
    fields: [
      ...touched,
      ...(change.phone !== undefined ? ["phone"] : []),
      ...(change.agent !== undefined ? ["agent"] : []),
      ...Object.keys(input.alsoSet ?? {}),
      ...(input.alsoChanged ?? []),
    ],
  });
  return updated;
}
