import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { asActor } from "@/lib/audit/actor";
import { hashPassword } from "@/lib/auth/secrets";
import { auditLogs, recoveryCodes, userFactors, users, userSessions } from "@/lib/db/schema";
import { finishSignIn, signIn } from "@/lib/domain/accounts/sign-in";
import { factorAdded, removeFactor, useSecondFactor } from "@/lib/domain/team/factors";
import { changeRole, resetMemberFactors } from "@/lib/domain/team/members";
import {
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  relyingParty,
} from "@/lib/domain/team/passkeys";
import { confirmTotp, startTotp, totpCode, totpStep, useTotpCode } from "@/lib/domain/team/totp";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { appFor, nextCode, signInWithCode } from "../helpers/sign-in";
import { softwareAuthenticator } from "../helpers/software-authenticator";

// Two-step sign-in (docs/reference.md section 23): authenticator apps (RFC 6238) with a fixed clock,
// recovery codes, passkeys against a software authenticator, the sign-in's stages, enrolment required
// of owners and admins, an owner's reset of a lost factor, and the audit log naming the factor.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(() => api.close());

type Isv = Awaited<ReturnType<TestApi["newIsv"]>>;
const token = (isv: Isv, code?: string) =>
  api.call("POST", "/v1/auth/token", { body: { email: isv.user_email, password: isv.password, code } });
const ownerId = async (isv: Isv) =>
  (await api.db.select({ id: users.id }).from(users).where(eq(users.accountId, isv.account_id)))[0]!.id;
/** A member of the ISV with `role` (password "a long password here"), made directly. */
const newMember = async (isv: Isv, role: "developer" | "admin") => {
  const id = createId("usr");
  const email = `${role}-${id.slice(4, 12).toLowerCase()}@example.test`;
  const passwordHash = await hashPassword("a long password here");
  await api.db.insert(users).values({ id, accountId: isv.account_id, email, role, passwordHash });
  return { id, email };
};
const sessionsOf = (userId: string) => api.db.select().from(userSessions).where(eq(userSessions.userId, userId));

describe("authenticator app codes, on a fixed clock", () => {
  test("the step before and after are accepted, two steps back is not, and a code is used once", async () => {
    const isv = await api.newIsv("TOTP ISV");
    const userId = await ownerId(isv);
    const t0 = new Date("2026-12-04T10:00:15Z");
    const started = await startTotp(api.db, { userId, email: isv.user_email });
    // An unconfirmed app signs nothing in.
    expect(await useTotpCode(api.db, userId, totpCode(started.secret, t0), { now: t0 })).toBeNull();
    await confirmTotp(api.db, userId, started.factorId, totpCode(started.secret, t0), t0);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    const use = (codeAt: Date, now: Date) => useTotpCode(api.db, userId, totpCode(started.secret, codeAt), { now });
    // The same code again (same step): refused.
    expect(await use(t0, t0)).toBeNull();
    // Next step's code while the server is still on this step (a clock ahead by up to 30 s): accepted.
    expect(await use(at(30), at(1))).toBe(started.factorId);
    // Then a code of the step before the server's (a clock behind): refused here, for it is older
    // than the one just used; a fresh one, two steps on, with the server one step further: accepted.
    expect(await use(at(0), at(31))).toBeNull();
    expect(await use(at(60), at(90))).toBe(started.factorId);
    // Two steps back from the server: refused whatever was used before.
    expect(await use(at(120), at(180))).toBeNull();
    expect(await use(at(150), at(150))).toBe(started.factorId);
    const [row] = await api.db.select().from(userFactors).where(eq(userFactors.id, started.factorId));
    expect(row!.lastUsedStep).toBe(totpStep(at(150)));
    // At rest: the secret is an envelope, with none of its characters in clear.
    expect(JSON.stringify(row!.secret)).not.toContain(started.secret.slice(0, 8));
    expect(row!.secret!.last4).toBe("");
    // Not six digits: nothing.
    expect(await useTotpCode(api.db, userId, "12345", { now: at(150) })).toBeNull();
  });

  test("two requests with one code at once: one is accepted", async () => {
    const isv = await api.newIsv("TOTP race ISV");
    const userId = await ownerId(isv);
    const app = await appFor(api.db, isv.user_email);
    const code = totpCode(app.secret, new Date((app.lastStep + 1) * 30_000));
    const now = new Date((app.lastStep + 1) * 30_000 + 1000);
    const both = await Promise.all([
      useTotpCode(api.db, userId, code, { now }),
      useTotpCode(api.db, userId, code, { now }),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
  });
});

describe("POST /v1/auth/token with a second factor", () => {
  test("an owner without a factor is refused until it sets one up; then the code is required, once", async () => {
    const isv = await api.newIsv("Token ISV");
    const refused = await token(isv);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("second_factor_enrolment_required");
    const userId = await ownerId(isv);
    expect(await sessionsOf(userId)).toEqual([]);

    const app = await appFor(api.db, isv.user_email);
    const missing = await token(isv);
    expect(missing.status).toBe(401);
    expect(missing.json.error).toMatchObject({ code: "second_factor_required", param: "code" });
    const wrong = await token(isv, totpCode(app.secret, new Date(Date.now() - 600_000)));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe("invalid_second_factor");
    // A wrong password with a right code uses nothing up.
    const code = nextCode(app);
    expect(
      (await api.call("POST", "/v1/auth/token", { body: { email: isv.user_email, password: "nope-nope-nope", code } }))
        .status,
    ).toBe(401);
    const ok = await token(isv, code);
    expect(ok.status, ok.text).toBe(200);
    expect((await token(isv, code)).status).toBe(401);
    // The session names its factor, and a change made with it is audited under it.
    const [session] = (await sessionsOf(userId)).filter((s) => s.endedAt === null);
    expect(session).toMatchObject({ stage: "complete", factor: "totp" });
    const patched = await api.call("PATCH", "/v1/account", {
      auth: `Bearer ${ok.json.access_token}`,
      body: { settings: { onboarding_link_ttl_seconds: 7200 } },
    });
    expect(patched.status, patched.text).toBe(200);
    const [entry] = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.accountId, isv.account_id), eq(auditLogs.action, "account.updated")));
    expect(entry).toMatchObject({ actorType: "user", actorId: userId, actorVia: "totp" });
  });

  test("recovery codes sign in once each, in place of the app", async () => {
    const isv = await api.newIsv("Recovery ISV");
    const app = await appFor(api.db, isv.user_email);
    const code = app.codes[0]!;
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const first = await token(isv, code.toUpperCase().replace("-", " "));
    expect(first.status, first.text).toBe(200);
    expect((await token(isv, code)).status).toBe(401);
    const userId = await ownerId(isv);
    const rows = await api.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.usedAt !== null)).toHaveLength(1);
    // Only digests are kept.
    expect(rows.map((r) => r.digest)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(code.replace("-", ""));
  });
});

describe("the sign-in's stages", () => {
  test("the password's session opens nothing but the second step, which ends it and opens a full one", async () => {
    const isv = await api.newIsv("Stages ISV");
    const app = await appFor(api.db, isv.user_email);
    const userId = await ownerId(isv);
    const first = await signIn(api.db, isv.user_email, isv.password, { userAgent: "Stage browser" });
    expect(first.stage).toBe("second_factor");
    expect(first.expires_in).toBe(600);
    const pendingAuth = { auth: `Bearer ${first.access_token}` };
    expect((await api.call("GET", "/v1/account", pendingAuth)).status).toBe(401);
    const [pending] = await sessionsOf(userId);
    const factor = await useSecondFactor(api.db, userId, { code: nextCode(app) });
    expect(factor).toBe("totp");
    const done = await finishSignIn(api.db, { sessionId: pending!.id, userId, accountId: isv.account_id }, factor, {
      userAgent: "Stage browser",
    });
    expect(done).not.toBeNull();
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${done!.access_token}` })).status).toBe(200);
    // The first step's token stays useless, and cannot be finished twice.
    expect((await api.call("GET", "/v1/account", pendingAuth)).status).toBe(401);
    expect(
      await finishSignIn(api.db, { sessionId: pending!.id, userId, accountId: isv.account_id }, "totp", {}),
    ).toBeNull();
  });

  test("a member made admin without a factor goes back to setting one up; the last factor of an admin stays", async () => {
    const isv = await api.newIsv("Promotion ISV");
    const owner = { accountId: isv.account_id, userId: await ownerId(isv), role: "owner" as const };
    const { id, email } = await newMember(isv, "developer");
    const dev = await api.call("POST", "/v1/auth/token", { body: { email, password: "a long password here" } });
    expect(dev.status).toBe(200);
    const auth = { auth: `Bearer ${dev.json.access_token}` };
    expect((await api.call("GET", "/v1/merchants", auth)).status).toBe(200);
    await asActor({ type: "user", id: owner.userId }, () => changeRole(api.db, owner, id, "admin"));
    expect((await api.call("GET", "/v1/merchants", auth)).status).toBe(401);
    const [session] = (await sessionsOf(id)).filter((s) => s.endedAt === null);
    expect(session!.stage).toBe("enrol");

    // Set up, then the admin's only factor cannot go; a developer's can.
    const started = await startTotp(api.db, { userId: id, email });
    const factorId = await confirmTotp(api.db, id, started.factorId, totpCode(started.secret));
    const codes = await factorAdded(api.db, { accountId: isv.account_id, userId: id, sessionId: null }, factorId);
    expect(codes).toHaveLength(10);
    const me = { accountId: isv.account_id, userId: id, sessionId: null, role: "admin" as const };
    await expect(removeFactor(api.db, me, factorId)).rejects.toMatchObject({ code: "last_factor" });
    expect(await api.db.select().from(userFactors).where(eq(userFactors.userId, id))).toHaveLength(1);
    await removeFactor(api.db, { ...me, role: "developer" }, factorId);
    expect(await api.db.select().from(userFactors).where(eq(userFactors.userId, id))).toHaveLength(0);
    // Its last factor gone, its recovery codes go with it.
    expect(await api.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id))).toHaveLength(0);
  });

  test("an owner resets a member's lost factor: its factors, codes and sessions end; never its own", async () => {
    const isv = await api.newIsv("Reset factor ISV");
    const owner = { accountId: isv.account_id, userId: await ownerId(isv), role: "owner" as const };
    const { id, email } = await newMember(isv, "admin");
    const signedIn = await signInWithCode(api, { email, password: "a long password here" });
    expect(signedIn.status).toBe(200);
    await expect(resetMemberFactors(api.db, owner, owner.userId)).rejects.toMatchObject({ code: "invalid_state" });
    await expect(resetMemberFactors(api.db, { ...owner, role: "admin" }, id)).rejects.toMatchObject({
      code: "permission_denied",
    });
    await asActor({ type: "user", id: owner.userId }, () => resetMemberFactors(api.db, owner, id));
    expect(await api.db.select().from(userFactors).where(eq(userFactors.userId, id))).toEqual([]);
    expect(await api.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id))).toEqual([]);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${signedIn.json.access_token}` })).status).toBe(401);
    // Its next sign-in sets a factor up first.
    const again = await api.call("POST", "/v1/auth/token", { body: { email, password: "a long password here" } });
    expect(again.json.error.code).toBe("second_factor_enrolment_required");
    const [entry] = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, "member.factors_reset"), eq(auditLogs.resourceId, id)));
    expect(entry!.actorId).toBe(owner.userId);
  });
});

describe("passkeys", () => {
  test("registered and used with a software authenticator; a replayed or foreign answer is refused", async () => {
    const isv = await api.newIsv("Passkey ISV");
    const userId = await ownerId(isv);
    const device = softwareAuthenticator(relyingParty());
    const registration = await passkeyRegistrationOptions(api.db, { userId, email: isv.user_email });
    expect(registration.rp.id).toBe(relyingParty().rpID);
    // An answer to another challenge is refused; nothing is kept.
    await expect(
      registerPasskey(api.db, userId, device.register({ challenge: "bm90LXRoZS1jaGFsbGVuZ2U" }), "Laptop"),
    ).rejects.toMatchObject({ code: "invalid_second_factor" });
    const factorId = await registerPasskey(api.db, userId, device.register(registration), "Laptop");
    const [kept] = await api.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    expect(kept).toMatchObject({ kind: "passkey", name: "Laptop", credentialId: device.id, counter: 0 });
    // The challenge was spent: the same answer again is refused.
    await expect(registerPasskey(api.db, userId, device.register(registration), "Again")).rejects.toMatchObject({
      code: "invalid_second_factor",
    });

    const options = await passkeySignInOptions(api.db, userId);
    expect(options!.allowCredentials!.map((c) => c.id)).toEqual([device.id]);
    const answer = device.authenticate(options!);
    expect(await useSecondFactor(api.db, userId, { passkey: answer })).toBe("passkey");
    // Replayed: its challenge is spent.
    expect(await useSecondFactor(api.db, userId, { passkey: answer })).toBeNull();
    // Signed for another site: refused.
    const other = await passkeySignInOptions(api.db, userId);
    expect(
      await useSecondFactor(api.db, userId, { passkey: device.authenticate(other!, "https://evil.example") }),
    ).toBeNull();
    const [after] = await api.db.select().from(userFactors).where(eq(userFactors.id, factorId));
    expect(after!.counter).toBe(1);
    // Another member's challenge does not serve this one.
    const stranger = await api.newIsv("Stranger ISV");
    const strangerId = await ownerId(stranger);
    const theirs = await passkeySignInOptions(api.db, userId);
    expect(await useSecondFactor(api.db, strangerId, { passkey: device.authenticate(theirs!) })).toBeNull();
  });
});
