import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { routePermission } from "@/lib/api/route-permissions";
import { asActor } from "@/lib/audit/actor";
import { type Role, roleMay, roles } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/secrets";
import { auditLogs, memberInvitations, outbox, users, userSessions } from "@/lib/db/schema";
import { acceptInvitation, inviteMember, revokeInvitation } from "@/lib/domain/team/invitations";
import { changeRole, listMembers, removeMember } from "@/lib/domain/team/members";
import { endOtherSessions, openSessions } from "@/lib/domain/team/sessions";
import { createId, randomBase62 } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { signInWithCode } from "../helpers/sign-in";

// The ISV's team (docs/reference.md section 23): one table of what each role may do, asked by
// every `/v1` operation a dashboard token reaches; invitations, role changes and removal; the last
// owner kept; sessions listed and ended.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
});
afterAll(() => api?.close());

type Isv = Awaited<ReturnType<TestApi["newIsv"]>>;

/** A member with `role` put straight into the ISV's team, signed in: its Bearer header. */
async function memberOf(isv: Isv, role: Role) {
  const email = `${role}-${randomBase62(8).toLowerCase()}@example.test`;
  const password = `pw-${randomBase62(16)}`;
  const id = createId("usr");
  await api.db
    .insert(users)
    .values({ id, accountId: isv.account_id, email, role, name: role, passwordHash: await hashPassword(password) });
  const res = await signInWithCode(api, { email, password });
  expect(res.status).toBe(200);
  return { id, email, password, auth: `Bearer ${res.json.access_token}` };
}

const ownerOf = async (isv: Isv) => {
  const [owner] = await api.db.select().from(users).where(eq(users.accountId, isv.account_id));
  return { accountId: isv.account_id, userId: owner!.id, role: "owner" as Role };
};

describe("the role table over every route", () => {
  test("every operation has a rule, and a dashboard token is refused exactly where its role may not", async () => {
    const isv = await api.newIsv("Roles ISV");
    const doc = (await api.call("GET", "/v1/openapi.json")).json;
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ["get", "post", "patch", "delete", "put"].includes(m))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(80);
    // The onboarding session's own API is the merchant's, never a dashboard token's.
    const memberOps = operations.filter((op) => !op.path.startsWith("/v1/onboarding/"));
    const missing = memberOps.filter((op) => routePermission(op.method, op.path) === undefined);
    expect(missing).toEqual([]);

    const members = Object.fromEntries(
      await Promise.all(roles.map(async (role) => [role, await memberOf(isv, role)] as const)),
    ) as unknown as Record<Role, { auth: string }>;
    let refused = 0;
    for (const op of memberOps) {
      const needed = routePermission(op.method, op.path);
      if (needed === "open" || needed === undefined) continue;
      const path = op.path.replace(/\{[^}]+\}/g, "x_unknown");
      for (const role of roles) {
        // The owner may do everything: its calls would really run (a settlement, a payout); the
        // table's other allowances are checked by the other roles' answers.
        if (role === "owner") continue;
        const res = await api.call(op.method, path, {
          auth: members[role].auth,
          body: op.method === "GET" || op.method === "DELETE" ? undefined : {},
        });
        const denied = res.status === 403 && res.json?.error?.code === "permission_denied";
        expect(denied, `${role} ${op.method} ${op.path}: ${res.status} ${res.text.slice(0, 120)}`).toBe(
          !roleMay(role, needed),
        );
        if (denied) {
          refused++;
          expect(res.json.error.message).toContain(`(${role})`);
        }
      }
    }
    expect(refused).toBeGreaterThan(50);
    // The account's own API key is the whole account's: nothing above refuses it.
    expect((await api.call("POST", "/v1/webhooks", { auth: isv.auth, body: {} })).status).toBe(400);
  });
});

const linkIn = async (email: string) => {
  const mails = await api.db.select().from(outbox).where(eq(outbox.to, email));
  const invitation = mails.filter((m) => m.kind === "member_invitation").at(-1);
  return invitation?.text.match(/\/sign-in\/invitation\/([0-9A-Za-z]+)/)?.[1];
};

describe("a member's life", () => {
  test("invited by an owner, accepts once, signs in, changes role, is removed: its sessions and tokens end", async () => {
    const isv = await api.newIsv("Team ISV");
    const owner = await ownerOf(isv);
    const email = `Ana.${randomBase62(6)}@Example.test`;
    // Only an owner invites; a support member is refused and nothing is sent.
    const support = await memberOf(isv, "support");
    const supportCaller = { accountId: isv.account_id, userId: support.id, role: "support" as Role };
    await expect(inviteMember(api.db, supportCaller, { email, role: "admin", locale: "en" })).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(
      inviteMember(api.db, owner, { email: "not an address", role: "admin", locale: "en" }),
    ).rejects.toMatchObject({ code: "parameter_invalid", param: "email" });
    await expect(inviteMember(api.db, owner, { email, role: "boss", locale: "en" })).rejects.toMatchObject({
      code: "parameter_invalid",
      param: "role",
    });
    expect(await linkIn(email.toLowerCase())).toBeUndefined();

    const invitation = await inviteMember(api.db, owner, { email, role: "developer", locale: "es" });
    const token = await linkIn(email.toLowerCase());
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
    const [mail] = await api.db.select().from(outbox).where(eq(outbox.to, email.toLowerCase()));
    expect(mail!.subject).toBe("Únete al equipo de Team ISV");
    expect(mail!.text).toContain("Desarrollador");
    // Only the digest is kept.
    const [row] = await api.db.select().from(memberInvitations).where(eq(memberInvitations.id, invitation.id));
    expect(row!.tokenDigest).not.toContain(token!);
    expect(JSON.stringify(row)).not.toContain(token!);

    // A weak password is refused and the invitation stays open.
    await expect(acceptInvitation(api.db, token!, { name: "Ana", password: "short" })).rejects.toMatchObject({
      param: "password",
    });
    const joined = await acceptInvitation(api.db, token!, { name: "Ana Ruiz", password: "a long password here" });
    await expect(
      acceptInvitation(api.db, token!, { name: "Ana", password: "a long password here" }),
    ).rejects.toMatchObject({
      code: "invitation_invalid",
    });
    const team = await listMembers(api.db, isv.account_id);
    expect(team.find((m) => m.id === joined.userId)).toMatchObject({
      name: "Ana Ruiz",
      role: "developer",
      email: email.toLowerCase(),
    });

    const signIn = await api.call("POST", "/v1/auth/token", {
      body: { email, password: "a long password here" },
      headers: { "user-agent": "Team test browser" },
    });
    expect(signIn.status).toBe(200);
    const auth = `Bearer ${signIn.json.access_token}`;
    // A developer reads payments and makes webhooks, but moves no money.
    expect((await api.call("GET", "/v1/refunds", { auth })).status).toBe(200);
    const refused = await api.call("POST", "/v1/refunds", { auth, body: { charge_id: "ch_x" } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "permission_denied" });
    expect(refused.json.error.message).toContain("owner");

    // The new role counts from the next request.
    await changeRole(api.db, owner, joined.userId, "view_only");
    expect(
      (await api.call("POST", "/v1/webhooks", { auth, body: { url: "https://hooks.example/x", scopes: ["merchant"] } }))
        .status,
    ).toBe(403);
    // Another ISV's member is nobody here.
    const other = await api.newIsv("Other Team ISV");
    await expect(changeRole(api.db, await ownerOf(other), joined.userId, "admin")).rejects.toMatchObject({
      code: "resource_missing",
    });
    await expect(removeMember(api.db, await ownerOf(other), joined.userId)).rejects.toMatchObject({
      code: "resource_missing",
    });

    await removeMember(api.db, owner, joined.userId);
    expect((await api.call("GET", "/v1/refunds", { auth })).status).toBe(401);
    const sessions = await api.db.select().from(userSessions).where(eq(userSessions.userId, joined.userId));
    expect(sessions.length).toBe(1);
    expect(sessions.every((s) => s.endedAt !== null)).toBe(true);
    expect(sessions[0]!.userAgent).toBe("Team test browser");
    expect(
      (await api.call("POST", "/v1/auth/token", { body: { email, password: "a long password here" } })).status,
    ).toBe(401);
    expect((await listMembers(api.db, isv.account_id)).map((m) => m.id)).not.toContain(joined.userId);
    // The address may be invited again.
    await inviteMember(api.db, owner, { email, role: "support", locale: "en" });
  });

  test("an invitation revoked, expired or to a taken address opens nothing", async () => {
    const isv = await api.newIsv("Invitations ISV");
    const owner = await ownerOf(isv);
    const email = `inv-${randomBase62(8).toLowerCase()}@example.test`;
    const first = await inviteMember(api.db, owner, { email, role: "support", locale: "en" });
    const firstToken = await linkIn(email);
    // A second invitation to the same address replaces the first.
    await inviteMember(api.db, owner, { email, role: "admin", locale: "en" });
    const secondToken = await linkIn(email);
    await expect(
      acceptInvitation(api.db, firstToken!, { name: "A", password: "a long password here" }),
    ).rejects.toMatchObject({ code: "invitation_invalid" });
    const [second] = await api.db
      .select()
      .from(memberInvitations)
      .where(and(eq(memberInvitations.email, email), eq(memberInvitations.role, "admin")));
    await revokeInvitation(api.db, owner, second!.id);
    await expect(
      acceptInvitation(api.db, secondToken!, { name: "A", password: "a long password here" }),
    ).rejects.toMatchObject({ code: "invitation_invalid" });
    await expect(revokeInvitation(api.db, owner, first.id)).rejects.toMatchObject({ code: "resource_missing" });
    // Expired: 7 days and a second later.
    await inviteMember(
      api.db,
      owner,
      { email, role: "support", locale: "en" },
      new Date(Date.now() - 7 * 24 * 3600_000 - 1000),
    );
    await expect(
      acceptInvitation(api.db, (await linkIn(email))!, { name: "A", password: "a long password here" }),
    ).rejects.toMatchObject({ code: "invitation_invalid" });
    // Another ISV's member: invited all the same (nothing tells whom another ISV has); the acceptance refuses.
    const other = await api.newIsv("Elsewhere ISV");
    await inviteMember(api.db, owner, { email: other.user_email, role: "admin", locale: "en" });
    await expect(
      acceptInvitation(api.db, (await linkIn(other.user_email))!, { name: "B", password: "a long password here" }),
    ).rejects.toMatchObject({ code: "email_taken" });
    expect((await listMembers(api.db, isv.account_id)).map((m) => m.email)).not.toContain(other.user_email);
    // An address already on this team.
    await expect(
      inviteMember(api.db, owner, { email: isv.user_email, role: "admin", locale: "en" }),
    ).rejects.toMatchObject({ code: "email_taken" });
    expect(await api.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  test("the team keeps an owner: the last one can be neither demoted nor removed; a second one can", async () => {
    const isv = await api.newIsv("Owners ISV");
    const owner = await ownerOf(isv);
    await expect(changeRole(api.db, owner, owner.userId, "admin")).rejects.toMatchObject({ code: "last_owner" });
    await expect(removeMember(api.db, owner, owner.userId)).rejects.toMatchObject({ code: "last_owner" });
    const second = await memberOf(isv, "admin");
    await asActor({ type: "user", id: owner.userId }, async () => {
      await changeRole(api.db, owner, second.id, "owner");
      await changeRole(api.db, owner, owner.userId, "admin");
    });
    const roleOf = async (id: string) => (await api.db.select().from(users).where(eq(users.id, id)))[0]!.role;
    expect(await roleOf(owner.userId)).toBe("admin");
    // Now an admin: it changes the team no more.
    await expect(changeRole(api.db, { ...owner, role: "admin" }, second.id, "support")).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(removeMember(api.db, { ...owner, role: "admin" }, second.id)).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect(await roleOf(second.id)).toBe("owner");
    const audit = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.accountId, isv.account_id), eq(auditLogs.action, "member.role_changed")));
    expect(audit.length).toBe(2);
  });
});

test("two owners demoting each other at once: one of them stays owner (a race on PostgreSQL)", async () => {
  // Eight teams at once, so that the two transactions overlap (without the account's lock, most end ownerless).
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const isv = await api.newIsv(`Race Owners ISV ${i}`);
      const a = await ownerOf(isv);
      const b = await memberOf(isv, "owner");
      const bCaller = { accountId: isv.account_id, userId: b.id, role: "owner" as Role };
      const results = await Promise.allSettled([
        changeRole(api.db, a, b.id, "admin"),
        changeRole(api.db, bCaller, a.userId, "admin"),
      ]);
      const owners = (await listMembers(api.db, isv.account_id)).filter((m) => m.role === "owner");
      return { done: results.filter((r) => r.status === "fulfilled").length, owners: owners.length };
    }),
  );
  expect(outcomes).toEqual(Array.from({ length: 8 }, () => ({ done: 1, owners: 1 })));
});

describe("sessions", () => {
  test("listed with their device; sign out everywhere ends the others and keeps this one", async () => {
    const isv = await api.newIsv("Sessions ISV");
    const owner = await ownerOf(isv);
    const signIn = async (agent: string) =>
      (
        await signInWithCode(
          api,
          { email: isv.user_email, password: isv.password },
          { headers: { "user-agent": agent } },
        )
      ).json.access_token as string;
    const [a, b] = [await signIn("Browser A"), await signIn("Browser B")];
    const sessions = await api.db.select().from(userSessions).where(eq(userSessions.userId, owner.userId));
    const current = sessions.find((s) => s.userAgent === "Browser B")!;
    const listed = await openSessions(api.db, owner.userId, current.id);
    expect(listed.map((s) => [s.userAgent, s.current])).toEqual([
      ["Browser B", true],
      ["Browser A", false],
    ]);
    expect(await endOtherSessions(api.db, owner, current.id)).toBe(1);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${a}` })).status).toBe(401);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${b}` })).status).toBe(200);
  });
});

describe("what only some roles may do with money", () => {
  test("support refunds up to the owner's limit; only an owner changes the ISV's payout bank account", async () => {
    const { approvedMerchant, payRequest } = await import("../helpers/payments");
    const isv = await api.newIsv("Limits ISV");
    const merchant = await approvedMerchant(api, isv);
    const paid = await payRequest(api, isv, merchant, 90_000);
    expect(paid.status).toBe(200);
    const chargeId = paid.json.charge?.id ?? paid.json.id;
    const support = await memberOf(isv, "support");
    const above = await api.call("POST", "/v1/refunds", {
      auth: support.auth,
      body: { charge_id: chargeId, amount: 50_001 },
    });
    expect(above.status).toBe(403);
    expect(above.json.error).toMatchObject({ code: "permission_denied", param: "amount" });
    expect(above.json.error.message).toContain("$500.00");
    // Without an amount: the whole charge, above the limit too.
    expect((await api.call("POST", "/v1/refunds", { auth: support.auth, body: { charge_id: chargeId } })).status).toBe(
      403,
    );
    const charge = await api.call("GET", `/v1/charges/${chargeId}`, { auth: isv.auth });
    expect(charge.json.amount_refunded).toBe(0);
    const within = await api.call("POST", "/v1/refunds", {
      auth: support.auth,
      body: { charge_id: chargeId, amount: 50_000 },
    });
    expect(within.status).toBe(200);
    // An admin has no limit.
    const admin = await memberOf(isv, "admin");
    expect(
      (await api.call("POST", "/v1/refunds", { auth: admin.auth, body: { charge_id: chargeId, amount: 40_000 } }))
        .status,
    ).toBe(200);

    const bank = {
      routing_number: "021000021",
      account_number: "000123456789",
      account_holder_name: "Limits ISV",
      account_type: "checking",
    };
    const byAdmin = await api.call("PATCH", "/v1/account", { auth: admin.auth, body: { payout_bank_account: bank } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json.error).toMatchObject({ code: "permission_denied", param: "payout_bank_account" });
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).json.payout_bank_account).toBeNull();
  });
});
