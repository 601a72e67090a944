import { and, eq, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { merchants, onboardingLinks } from "../../db/schema";
import { enqueueJob } from "../../jobs/runner";
import { AppError, invalidFields, invalidState, unauthenticated } from "../../errors";
import type { FieldError } from "../../errors";
import { createId } from "../../ids";
import { env } from "../../env";
import { recordEvent } from "../events/record-event";
import { getAccount, type AccountRow } from "../accounts/get-account";
import { findMerchant, type MerchantRow } from "../merchants/find-merchant";
import { applicationProblems, mergeApplication } from "../merchants/application";
import { capabilityOverrideErrors } from "../merchants/capability-overrides";
import { serializeMerchant } from "../../serializers/merchant";
import { merchantRequirements } from "../merchants/requirements";
import { stepProgress } from "../../onboarding/steps";
import { hostedBaseUrl } from "./create-onboarding-link";
import type { AccountSettings, MerchantDefaults } from "../../schemas/account";
import type { PartialApplication } from "../../schemas/merchant";

export type SessionPrincipal = { merchantId: string; linkId: string; accountId: string };
type LinkRow = typeof onboardingLinks.$inferSelect;

async function loadSession(db: DbOrTx, principal: SessionPrincipal, forUpdate = false) {
  const [link] = await db.select().from(onboardingLinks).where(eq(onboardingLinks.id, principal.linkId));
  // A newer link ends the sessions of older ones.
  if (!link || link.supersededAt || link.merchantId !== principal.merchantId) {
    throw unauthenticated("This onboarding session has ended: a newer link was created. Open the latest link.");
  }
  const merchant = await findMerchant(db, principal.accountId, principal.merchantId, { forUpdate });
  const isv = await getAccount(db, principal.accountId);
  return { link, merchant, isv };
}

function deviceRules(link: LinkRow, isv: AccountRow) {
  const settings = isv.settings as AccountSettings;
  const required = settings.device_selection_required !== false;
  return { required, skippable: required && (link.allowSkipDeviceSelection ?? settings.allow_skip_device_selection), catalog: settings.devices };
}

function sessionProblems(merchant: MerchantRow, link: LinkRow, isv: AccountRow): FieldError[] {
  const problems = applicationProblems(merchant.application);
  const { required } = deviceRules(link, isv);
  if (required && !merchant.deviceSelection) {
    problems.push({ param: "device", code: "parameter_missing", message: "Choose a device (or, where allowed, confirm you will supply a compatible one)" });
  }
  if (!merchant.agreement) {
    problems.push({ param: "agreement", code: "parameter_missing", message: "Owner one must sign the merchant processing agreement" });
  }
  // What underwriting asked for and the merchant has not changed yet.
  for (const e of merchant.requirements?.errors ?? []) problems.push({ param: e.field, code: "information_requested", message: e.message });
  return problems;
}

/** The session as the wizard reads it (CONTRACT.md section 6): everything masked. */
function view(merchant: MerchantRow, link: LinkRow, isv: AccountRow) {
  const problems = merchant.status === "IN_PROGRESS" || merchant.status === "NOT_STARTED" ? sessionProblems(merchant, link, isv) : [];
  const device = deviceRules(link, isv);
  const serialized = serializeMerchant(merchant, isv);
  return {
    object: "onboarding_session" as const,
    merchant_id: merchant.id,
    lead_onboarding_status: merchant.status,
    merchant: serialized.merchant,
    device: serialized.device ?? null,
    device_selection: merchant.deviceSelection,
    branding: isv.defaults as MerchantDefaults,
    steps: stepProgress(problems.map((p) => p.param)),
    requirements: merchantRequirements(merchant, { deviceRequired: device.required }),
    device_options: device.catalog,
    device_selection_required: device.required,
    allow_skip_device_selection: device.skippable,
    return_url: link.returnUrl ?? (isv.defaults as MerchantDefaults).redirect_url ?? null,
    expires_at: link.expiresAt.toISOString(),
    agreement: merchant.agreement ? { signed: true, name: merchant.agreement.name as string, signed_at: merchant.agreement.signed_at as string } : { signed: false, name: null, signed_at: null },
  };
}
export type SessionView = ReturnType<typeof view>;

export async function getSession(db: Db, principal: SessionPrincipal) {
  const { link, merchant, isv } = await loadSession(db, principal);
  return view(merchant, link, isv);
}

/** The session's rows, for the pages that render from them (agreement PDF, wizard). */
export async function getSessionRows(db: Db, principal: SessionPrincipal) {
  return loadSession(db, principal);
}

export type SessionPatch = {
  merchant?: PartialApplication;
  device?: { imei?: string; catalog_id?: string };
  device_selection?: "skipped";
};

const open = new Set(["NOT_STARTED", "IN_PROGRESS"]);

/** PATCH /v1/onboarding/session: a partial save; every error at once; nothing saved from an invalid request. */
export async function updateSession(db: Db, principal: SessionPrincipal, patch: SessionPatch) {
  return db.transaction(async (tx) => {
    const { link, merchant, isv } = await loadSession(tx, principal, true);
    if (!open.has(merchant.status)) throw invalidState(`The application can change only while it is open; lead_onboarding_status is ${merchant.status}`);
    const errors: FieldError[] = [];
    let application = merchant.application;
    if (patch.merchant) {
      errors.push(...capabilityOverrideErrors(patch.merchant as Record<string, unknown>));
      // Pricing is the ISV's to set, not the merchant's.
      for (const key of ["capabilities", "fees", "bank_account_results"] as const) {
        if ((patch.merchant as Record<string, unknown>)[key] !== undefined) {
          errors.push({ param: `merchant.${key}`, code: "parameter_not_allowed", message: `merchant.${key} is set by the platform, not in the onboarding session` });
        }
      }
      const merged = mergeApplication(merchant.application, patch.merchant as Record<string, unknown>);
      errors.push(...merged.errors);
      application = merged.next;
    }
    const rules = deviceRules(link, isv);
    const now = new Date();
    let device: Partial<typeof merchants.$inferInsert> = {};
    if (patch.device && patch.device_selection) {
      errors.push({ param: "device_selection", code: "parameter_invalid", message: "Send either a device or device_selection \"skipped\", not both" });
    } else if (patch.device?.catalog_id !== undefined) {
      if (!rules.catalog.some((d) => d.id === patch.device!.catalog_id)) {
        errors.push({ param: "device.catalog_id", code: "parameter_invalid", message: `device.catalog_id must be one of: ${rules.catalog.map((d) => d.id).join(", ")}` });
      } else {
        device = { deviceId: merchant.deviceId ?? createId("dev"), deviceCatalogId: patch.device.catalog_id, deviceImeiStatus: "UNKNOWN", deviceSelection: "selected", deviceCreatedAt: merchant.deviceCreatedAt ?? now, deviceUpdatedAt: now };
      }
    } else if (patch.device?.imei !== undefined) {
      const [taken] = await tx
        .select({ id: merchants.id })
        .from(merchants)
        .where(and(eq(merchants.isvAccountId, merchant.isvAccountId), eq(merchants.deviceImei, patch.device.imei), ne(merchants.id, merchant.id)));
      if (taken) errors.push({ param: "device.imei", code: "imei_in_use", message: "This device is already registered to another merchant" });
      else device = { deviceId: merchant.deviceId ?? createId("dev"), deviceImei: patch.device.imei, deviceImeiStatus: "UNKNOWN", deviceSelection: "selected", deviceCreatedAt: merchant.deviceCreatedAt ?? now, deviceUpdatedAt: now };
    } else if (patch.device_selection === "skipped") {
      if (!rules.skippable) errors.push({ param: "device_selection", code: "parameter_invalid", message: "Device selection cannot be skipped for this application" });
      else device = { deviceSelection: "skipped", ...(merchant.deviceImei ? {} : { deviceId: null, deviceCatalogId: null, deviceImeiStatus: null, deviceCreatedAt: null, deviceUpdatedAt: null }) };
    }
    if (errors.length) throw invalidFields(errors);

    // Requirements the merchant has just answered are satisfied (underwriting checks again on submit).
    const touched = patch.merchant ? touchedPaths(patch.merchant as Record<string, unknown>, "merchant") : [];
    const answered = (field: string) => touched.some((t) => t === field || t.startsWith(`${field}.`) || field.startsWith(`${t}.`));
    const requirements = merchant.requirements
      ? { currently_due: merchant.requirements.currently_due.filter((f) => !answered(f)), errors: merchant.requirements.errors.filter((e) => !answered(e.field)) }
      : null;
    const [updated] = await tx
      .update(merchants)
      // The agreement was generated from the application: changing the application unsigns it.
      .set({ application, ...device, ...(patch.merchant ? { agreement: null } : {}), requirements: requirements?.currently_due.length ? requirements : null, status: "IN_PROGRESS", updatedAt: now })
      .where(eq(merchants.id, merchant.id))
      .returning();
    await recordEvent(tx, { accountId: merchant.isvAccountId, type: "merchant.updated", objectId: merchant.id, data: serializeMerchant(updated!, isv) });
    return view(updated!, link, isv);
  });
}

/** Every leaf path a PATCH body sets, e.g. merchant.bank_account.routing_number. */
function touchedPaths(value: Record<string, unknown>, prefix: string): string[] {
  return Object.entries(value).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) ? touchedPaths(v as Record<string, unknown>, `${prefix}.${k}`) : [`${prefix}.${k}`],
  );
}

/** Where the browser goes after submitting: the return URL with the outcome, or the "all done" page. */
export function completionUrl(link: LinkRow, isv: AccountRow, merchant: MerchantRow) {
  const target = link.returnUrl ?? (isv.defaults as MerchantDefaults).redirect_url ?? `${hostedBaseUrl(isv.defaults as MerchantDefaults)}/onboarding/complete`;
  const url = new URL(target);
  url.searchParams.set("merchant_id", merchant.id);
  url.searchParams.set("lead_onboarding_status", merchant.status);
  if (link.state) url.searchParams.set("state", link.state);
  return url.toString();
}

/** POST /v1/onboarding/session/submit: the whole application checked, then COMPLETED and underwriting queued. */
export async function submitSession(db: Db, principal: SessionPrincipal) {
  return db.transaction(async (tx) => {
    const { link, merchant, isv } = await loadSession(tx, principal, true);
    if (!open.has(merchant.status)) throw invalidState(`The application was already submitted; lead_onboarding_status is ${merchant.status}`);
    const problems = sessionProblems(merchant, link, isv);
    if (problems.length) {
      throw new AppError("application_incomplete", `The application is not complete: ${problems.length} field(s) missing or invalid`, { errors: problems });
    }
    const now = new Date();
    const [submitted] = await tx
      .update(merchants)
      .set({ status: "COMPLETED", requirements: null, submittedAt: now, updatedAt: now })
      .where(eq(merchants.id, merchant.id))
      .returning();
    await recordEvent(tx, { accountId: merchant.isvAccountId, type: "merchant.submitted", objectId: merchant.id, data: serializeMerchant(submitted!, isv) });
    // Underwriting goes ahead of webhook deliveries: the sandbox promises a decision within seconds.
    await enqueueJob(tx, "underwriting", { merchant_id: merchant.id, app_env: env.APP_ENV }, { priority: 10 });
    return { lead_onboarding_status: submitted!.status, redirect_url: completionUrl(link, isv, submitted!) };
  });
}

