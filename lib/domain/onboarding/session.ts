import { type CheckedSession, checkSession, type SessionPrincipal } from "../../auth/onboarding-session";
import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, type FieldError } from "../../errors";
import { enqueueJob } from "../../jobs/job-types";
import type { LooseJson } from "../../loose-json";
import { type PartialApplication } from "../../schemas/merchant";
import { serializeOnboardingSession } from "../../serializers/onboarding-session";
import { brandOf, settingsOf } from "../accounts/isv-facts";
import { applicationProblems } from "../merchants/application";
import { changeApplication, type DeviceChange } from "../merchants/change-application";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { askedFields, deviceRequired, merchantRequirements } from "../merchants/requirements";
import { signatureIsCurrent } from "../merchants/signature";
import { assertOpen, isOpen, moveMerchant } from "../merchants/status";
import { payoutSettingsOf } from "../payouts/settings";
import { startChecks } from "../verification/start-checks";
import { portalLinkAfterSubmit } from "./continue-in-portal";

/** A session as a request uses it: who (from the token) and where (the request's host). */
export type SessionUse = SessionPrincipal & { host?: string };

const check = (db: Parameters<typeof checkSession>[0], use: SessionUse, forUpdate = false) =>
  checkSession(db, use, { forUpdate, host: use.host });

function deviceRules({ link, isv }: Pick<CheckedSession, "link" | "isv">) {
  const settings = settingsOf(isv);
  const required = deviceRequired(settings);
  return {
    required,
    skippable: required && (link.allowSkipDeviceSelection ?? settings.allow_skip_device_selection),
    catalog: settings.devices,
  };
}

/** Everything that keeps the application from being submitted, as field errors. */
/** `signed`: whether the signature covers today's agreement text (signatureIsCurrent, computed once by the caller). */
function sessionProblems(session: CheckedSession, signed: boolean): FieldError[] {
  const { merchant } = session;
  const problems = applicationProblems(merchant.application);
  if (deviceRules(session).required && !merchant.deviceSelection) {
    problems.push({
      param: "device",
      code: "parameter_missing",
      message: "Choose a device (or, where allowed, confirm you will supply a compatible one)",
    });
  }
  if (!signed) {
    problems.push({
      param: "agreement",
      code: "parameter_missing",
      message: merchant.agreement
        ? "The agreement changed after it was signed: owner one must sign it again"
        : "Owner one must sign the merchant processing agreement",
    });
  }
  // What underwriting asked for and the merchant has not changed yet.
  for (const e of merchant.requirements?.errors ?? [])
    problems.push({ param: e.field, code: "information_requested", message: e.message });
  return problems;
}

async function view(db: DbOrTx, session: CheckedSession) {
  // Generating and hashing the agreement text is the costly part of a session read: once.
  const signed = signatureIsCurrent(session.merchant, session.isv);
  const device = deviceRules(session);
  return serializeOnboardingSession(session, {
    problems: isOpen(session.merchant.status) ? sessionProblems(session, signed) : [],
    device,
    signed,
    requirements: merchantRequirements(session.merchant, { deviceRequired: device.required }),
    asked: isOpen(session.merchant.status) ? askedFields(session.merchant.requirements) : [],
    payouts: await payoutSettingsOf(db, session.merchant.id),
  });
}

export async function getSession(db: Db, use: SessionUse) {
  return view(db, await check(db, use));
}

/** The session's rows, for the pages that render from them (agreement PDF, wizard). */
export async function getSessionRows(db: Db, use: SessionUse) {
  return check(db, use);
}

export type SessionPatch = {
  merchant?: PartialApplication;
  device?: { imei?: string; catalog_id?: string };
  device_selection?: "skipped";
};

/** PATCH /v1/onboarding/session: a partial save through the one writer; every error at once. */
export async function updateSession(db: Db, use: SessionUse, patch: SessionPatch) {
  return db.transaction(async (tx) => {
    const session = await check(tx, use, true);
    assertOpen(session.merchant, "The application can change");
    if (patch.device && patch.device_selection) {
      throw new AppError("parameter_invalid", 'Send either a device or device_selection "skipped", not both', {
        param: "device_selection",
        errors: [
          {
            param: "device_selection",
            code: "parameter_invalid",
            message: 'Send either a device or device_selection "skipped", not both',
          },
        ],
      });
    }
    const device: DeviceChange | undefined =
      patch.device?.catalog_id !== undefined
        ? { catalog_id: patch.device.catalog_id }
        : patch.device?.imei !== undefined
          ? { imei: patch.device.imei }
          : patch.device_selection === "skipped"
            ? { skipped: true }
            : undefined;
    const rules = deviceRules(session);
    const merchant = await changeApplication(tx, {
      merchant: session.merchant,
      isv: session.isv,
      writer: "merchant",
      change: { merchant: patch.merchant, device },
      deviceRules: rules,
    });
    return view(tx, { ...session, merchant });
  });
}

/** Where the browser goes after submitting: the return URL with the outcome, or the "all done" page. */
export function completionUrl({ link, isv, merchant }: CheckedSession) {
  const defaults = brandOf(isv);
  const target = link.returnUrl ?? defaults.redirect_url ?? `${hostedBaseUrl(isv)}/onboarding/complete`;
  const url = new URL(target);
  url.searchParams.set("merchant_id", merchant.id);
  url.searchParams.set("lead_onboarding_status", merchant.status);
  if (link.state) url.searchParams.set("state", link.state);
  return url.toString();
}

/**
 * Where the "all done" page sends the browser: the URL this server builds for the session (the
 * return URL with the merchant's status as it is now, the status the page shows), or null when the
 * ISV gave none. Whatever the page's query says (`?to=`, an older status) is never used: no open
 * redirect, and no stale status.
 */
export function returnTarget(session: CheckedSession): string | null {
  return (session.link.returnUrl ?? brandOf(session.isv).redirect_url) ? completionUrl(session) : null;
}

/**
 * What the completion page shows, read (never written) with the session that submitted, even once a
 * newer link superseded it (underwriting's information request mails the merchant a fresh portal
 * link): the ISV's brand, the merchant's status now, what underwriting asked for, and the return URL
 * carrying that same status.
 */
export async function completionView(db: Db, use: SessionUse) {
  const session = await checkSession(db, use, { host: use.host, allowSuperseded: true });
  const { merchant } = session;
  const app = merchant.application as LooseJson;
  const person = (o: LooseJson | null | undefined) =>
    o ? { first_name: o.first_name ?? null, last_name: o.last_name ?? null } : undefined;
  return {
    branding: brandOf(session.isv),
    status: merchant.status,
    requested: isOpen(merchant.status) ? (merchant.requirements?.errors ?? []) : [],
    // Whom the requests name (a document request says whose document): names only.
    names: {
      legal_business_name: app.legal_business_name ?? null,
      owner_one: person(app.owner_one),
      owner_two: person(app.owner_two),
      owner_three: person(app.owner_three),
      owner_four: person(app.owner_four),
    },
    target: returnTarget(session),
    /** Underwriting asked for more and the merchant can answer here and then (continue-in-portal.ts). */
    answerHere: (await portalLinkAfterSubmit(db, session)) !== null,
  };
}

/** POST /v1/onboarding/session/submit: the whole application checked, then COMPLETED and underwriting queued. */
export async function submitSession(db: Db, use: SessionUse) {
  return db.transaction(async (tx) => {
    const session = await check(tx, use, true);
    assertOpen(session.merchant, "The application can be submitted");
    const problems = sessionProblems(session, signatureIsCurrent(session.merchant, session.isv));
    if (problems.length) {
      throw new AppError(
        "application_incomplete",
        `The application is not complete: ${problems.length} field(s) missing or invalid`,
        { errors: problems },
      );
    }
    const submitted = await startChecks(
      tx,
      await moveMerchant(tx, session.merchant.id, "submitApplication", {
        requirements: null,
        submittedAt: clock.now(),
      }),
    );
    await recordMerchantEvent(tx, "merchant.submitted", submitted, { isv: session.isv });
    await enqueueJob(tx, "underwriting", { merchant_id: submitted.id });
    return {
      lead_onboarding_status: submitted.status,
      redirect_url: completionUrl({ ...session, merchant: submitted }),
    };
  });
}
