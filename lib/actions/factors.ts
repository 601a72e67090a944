"use server";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import QRCode from "qrcode";

import { asActor, memberActor } from "@/lib/audit/actor";
import { assertFreshSignIn } from "@/lib/auth/fresh-sign-in";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { cookieMember, type IsvMember } from "@/lib/dashboard/session";
import { users } from "@/lib/db/schema";
import { factorAdded, removeFactor, renewRecoveryCodes } from "@/lib/domain/team/factors";
import { passkeyRegistrationOptions, registerPasskey } from "@/lib/domain/team/passkeys";
import { confirmTotp, startTotp } from "@/lib/domain/team/totp";

import { type Attempt, attempt } from "./result";
import { sensitiveChange } from "./sensitive-change";

// Setting up and removing second factors (docs/reference.md section 23): at the sign-in's `enrol`
// step (an owner or admin with none, an invited member), or from the settings with a sign-in of the
// last 15 minutes. The first factor brings ten recovery codes, shown once.

/** Who is setting up a factor: a sign-in at its `enrol` step, or a signed-in member with a fresh sign-in. */
async function settingUp() {
  const found = await cookieMember();
  // No sign-in (or one whose factor is still due): back to the sign-in, as every dashboard page does.
  if (!found || found.member.stage === "second_factor") redirect("/sign-in");
  const { db, member } = found;
  if (member.stage === "complete") assertFreshSignIn(member.signedInAt, "Setting up a second factor");
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, member.userId));
  const head = await headers();
  const client = { userAgent: head.get("user-agent"), address: head.get(CLIENT_ADDRESS_HEADER) };
  return { db, member, email: user?.email ?? "", client };
}

type SetUp = Awaited<ReturnType<typeof settingUp>>;

/**
 * The new factor is kept, and the member's other sessions end; the first factor brings the recovery
 * codes. At the sign-in's `enrol` step the sign-in finishes when the member goes on (finishEnrolmentAction).
 */
async function added({ db, member, client }: SetUp, factorId: string, kind: "totp" | "passkey") {
  // The actor names the factor being set up (at the `enrol` step the session has none yet).
  const actor = memberActor({ userId: member.userId, factor: kind }, { clientAddress: client.address });
  const codes = await asActor(actor, () =>
    factorAdded(db, { accountId: member.accountId, userId: member.userId, sessionId: member.sessionId }, factorId),
  );
  return { codes };
}

/** A new authenticator-app secret: its QR code (a data URL) and the key to type instead. */
export async function startTotpAction(): Promise<Attempt<{ factorId: string; secret: string; qr: string }>> {
  return attempt(async () => {
    const { db, member, email } = await settingUp();
    const started = await startTotp(db, { userId: member.userId, email });
    const qr = await QRCode.toDataURL(started.uri, { margin: 1, width: 220, errorCorrectionLevel: "M" });
    return { factorId: started.factorId, secret: started.secret, qr };
  });
}

/** The app's first code confirms it. */
export async function confirmTotpAction(factorId: string, code: string): Promise<Attempt<{ codes: string[] | null }>> {
  return attempt(async () => {
    const setUp = await settingUp();
    const id = await confirmTotp(setUp.db, setUp.member.userId, factorId, code);
    return added(setUp, id, "totp");
  });
}

/** What the browser needs to make a passkey. */
export async function passkeyOptionsAction() {
  return attempt(async () => {
    const { db, member, email } = await settingUp();
    return passkeyRegistrationOptions(db, { userId: member.userId, email });
  });
}

/** The browser made a passkey: kept once it answers our challenge. */
export async function registerPasskeyAction(
  response: RegistrationResponseJSON,
  name: string,
): Promise<Attempt<{ codes: string[] | null }>> {
  return attempt(async () => {
    const setUp = await settingUp();
    const id = await registerPasskey(setUp.db, setUp.member.userId, response, name);
    return added(setUp, id, "passkey");
  });
}

/** A change to the member's own factors from the settings: any role, a sign-in of the last 15 minutes. */
const ownFactors = <T>(work: (member: IsvMember) => Promise<T>) =>
  sensitiveChange("account:read", "/dashboard/settings", work);

/** Removes one of the member's factors (never an owner's or admin's last one). */
export async function removeFactorAction(factorId: string): Promise<Attempt<null>> {
  return ownFactors(async (member) => {
    await removeFactor(member.db, { ...member, accountId: member.account.id }, factorId);
    return null;
  });
}

/** Ten new recovery codes (the old ones stop working), shown once. */
export async function renewRecoveryCodesAction(): Promise<Attempt<string[]>> {
  return ownFactors((member) => renewRecoveryCodes(member.db, { ...member, accountId: member.account.id }));
}
