import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { asActor } from "@/lib/audit/actor";
import { accounts, auditLogs, merchants, outbox, users, webhookDeliveries } from "@/lib/db/schema";
import { createApiKey, revokeApiKey } from "@/lib/domain/accounts/api-keys";
import { queueAccountChangeNotices, reportAccountChange } from "@/lib/domain/accounts/payout-account-change";
import { nonEventActions } from "@/lib/domain/audit/actions";
import { redeemLoginLink } from "@/lib/domain/home/login";
import { setPayoutSettings } from "@/lib/domain/payouts/settings";
import { factorAdded, removeFactor, renewRecoveryCodes } from "@/lib/domain/team/factors";
import { acceptInvitation, inviteMember, revokeInvitation } from "@/lib/domain/team/invitations";
import { changeRole, removeMember, resetMemberFactors } from "@/lib/domain/team/members";
import { endOtherSessions } from "@/lib/domain/team/sessions";
import { confirmTotp, startTotp, totpCode } from "@/lib/domain/team/totp";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant } from "../helpers/payments";
import { memberBearer } from "../helpers/sign-in";

// Every audited action that writes no event (lib/domain/audit/actions.ts) writes its entry, with the
// actor who did it (docs/reference.md section 17): one row per action of the catalogue, so a new
// action without its row fails to compile, and an action whose entry is forgotten fails here.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchantId: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Audit Catalogue ISV");
  merchantId = (await approvedMerchant(api, isv)).id;
  await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: { settings: { embed_allowed_origins: ["https://isv.example"] } },
  });
}, 60_000);
afterAll(() => api.close());

type Action = (typeof nonEventActions)[number];
type Expected = { resourceId: string; actor: { type: string; id?: string; via?: string | null } };

const post = (path: string, body: unknown = {}) => api.call("POST", path, { auth: isv.auth, body });
const cli = async (args: string[]) => {
  const result = await runCommand(api.handle, [...args, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
/** The ISV's first user, its owner, acting in the dashboard. */
const owner = async () => {
  const [user] = await api.db.select().from(users).where(eq(users.accountId, isv.account_id));
  return { accountId: isv.account_id, userId: user!.id, role: "owner" as const };
};
const asOwner = async <T>(work: (caller: Awaited<ReturnType<typeof owner>>) => Promise<T>) => {
  const caller = await owner();
  return asActor({ type: "user", id: caller.userId }, () => work(caller));
};
/** A member invited by the owner, who accepts: its id. */
const joined = async (role: "support" | "developer") =>
  asOwner(async (caller) => {
    const email = `${role}-${createId("evt").slice(4, 14).toLowerCase()}@example.test`;
    await inviteMember(api.db, caller, { email, role, locale: "en" });
    const [mail] = await api.db.select().from(outbox).where(eq(outbox.to, email));
    const token = mail!.text.match(/\/sign-in\/invitation\/([0-9A-Za-z]+)/)![1]!;
    return (await acceptInvitation(api.db, token, { name: "Team Member", password: "a long password here" })).userId;
  });
/** A member acting in the dashboard. */
const asMember = <T>(id: string, work: () => Promise<T>) => asActor({ type: "user", id }, work);
/** An authenticator app set up by the member (its first code checked): the factor's id. */
const appOf = async (userId: string) => {
  const started = await startTotp(api.db, { userId, email: "member@example.test" });
  const factorId = await confirmTotp(api.db, userId, started.factorId, totpCode(started.secret));
  await factorAdded(api.db, { accountId: isv.account_id, userId, sessionId: null }, factorId);
  return factorId;
};
const apiKey = () => ({ type: "api_key", id: isv.account_id, via: isv.secret_key.slice(-4) });

const cases: Record<Action, () => Promise<Expected>> = {
  "account.created": async () => {
    const made = await cli([
      "isv",
      "create",
      "--name",
      "Cat ISV",
      "--email",
      `cat-${createId("evt")}@example.test`,
      "--password",
      "a long password here",
    ]);
    return { resourceId: made.account_id, actor: { type: "cli" } };
  },
  "account.cost_profile_updated": async () => {
    await cli(["isv", "cost-profile", "set", isv.account_id, "--network-bps", "12"]);
    return { resourceId: isv.account_id, actor: { type: "cli" } };
  },
  "account_session.created": async () => {
    const res = await post("/v1/account_sessions", {
      merchant_id: merchantId,
      components: { payments: { enabled: true } },
    });
    expect(res.status, res.text).toBe(200);
    // Recorded on the merchant it opens (the session's secret is never a resource to look up).
    return { resourceId: merchantId, actor: apiKey() };
  },
  "account.updated": async () => {
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { defaults: { primary_color: "#0e7490" } } });
    return { resourceId: isv.account_id, actor: apiKey() };
  },
  "account.custom_domain_verified": async () => {
    await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { defaults: { custom_domain: `pay-${createId("evt").slice(4, 12).toLowerCase()}.example.com` } },
    });
    const res = await post("/v1/test_helpers/account/custom_domain/verify");
    expect(res.status, res.text).toBe(200);
    return { resourceId: isv.account_id, actor: apiKey() };
  },
  "account.payout_bank_account_changed": async () => {
    const other = await api.newIsv("Bank Change ISV");
    const res = await api.call("PATCH", "/v1/account", {
      auth: await memberBearer(api, { email: other.user_email, password: other.password }),
      body: {
        payout_bank_account: {
          routing_number: "021000021",
          account_number: "000123456789",
          account_holder_name: "Bank Change ISV",
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const [user] = await api.db.select().from(users).where(eq(users.accountId, other.account_id));
    return { resourceId: other.account_id, actor: { type: "user", id: user!.id } };
  },
  "account.payouts_frozen": async () => {
    const other = await api.newIsv("Frozen ISV");
    const [user] = await api.db.select().from(users).where(eq(users.accountId, other.account_id));
    await api.db.transaction((tx) =>
      asActor({ type: "cli", id: "test" }, async () => {
        const [isvRow] = await tx.select().from(accounts).where(eq(accounts.id, other.account_id));
        await queueAccountChangeNotices(tx, isvRow!, { last4: "6789", holdDays: 2, changedBy: null });
      }),
    );
    const mail = (await api.db.select().from(outbox).where(eq(outbox.to, user!.email))).find(
      (m) => m.kind === "account_bank_account_changed",
    );
    const token = mail!.text.match(/\/sign-in\/report\/([0-9A-Za-z]{43})/)![1]!;
    expect(await reportAccountChange(api.db, token)).not.toBeNull();
    return { resourceId: other.account_id, actor: { type: "user", id: user!.id, via: "change_notice" } };
  },
  "account.payouts_unfrozen": async () => {
    const other = await api.newIsv("Unfrozen ISV");
    await setPayoutSettings(api.db, { id: other.account_id, recipient: "account" }, { frozenAt: new Date() });
    expect(await cli(["isv", "payouts", "release", other.account_id])).toEqual({
      account_id: other.account_id,
      released: true,
    });
    return { resourceId: other.account_id, actor: { type: "cli" } };
  },
  "api_key.rotated": async () => {
    const other = await api.newIsv("Rotated ISV");
    await cli(["isv", "rotate-key", other.account_id]);
    return { resourceId: other.account_id, actor: { type: "cli" } };
  },
  "file.created": async () => {
    const form = new FormData();
    form.set("purpose", "additional_verification");
    form.set("merchant_id", merchantId);
    form.set("file", new Blob([new Uint8Array(Buffer.from(`%PDF-1.4\n% ${createId("evt")}\n%%EOF\n`))]), "a.pdf");
    const res = await fetch(`${api.baseUrl}/v1/files`, {
      method: "POST",
      body: form,
      headers: { authorization: isv.auth },
    });
    return { resourceId: ((await res.json()) as { id: string }).id, actor: apiKey() };
  },
  "login_link.created": async () => {
    await post(`/v1/merchants/${merchantId}/login_links`);
    return { resourceId: merchantId, actor: apiKey() };
  },
  "merchant.signed_in": async () => {
    const link = (await post(`/v1/merchants/${merchantId}/login_links`)).json;
    expect(await redeemLoginLink(api.db, link.url.split("/home/login/")[1])).not.toBeNull();
    return { resourceId: merchantId, actor: { type: "isv", id: isv.account_id, via: "login_link" } };
  },
  "api_key.created": async () => {
    const made = await asOwner(() =>
      createApiKey(api.db, isv.account_id, { name: "Audit key", permissions: { payments: "read" } }, { live: false }),
    );
    return { resourceId: made.id, actor: { type: "user" } };
  },
  "api_key.revoked": async () => {
    const made = await asOwner(async () => {
      const key = await createApiKey(api.db, isv.account_id, { name: "Gone key", permissions: null }, { live: false });
      await revokeApiKey(api.db, isv.account_id, key.id);
      return key;
    });
    return { resourceId: made.id, actor: { type: "user" } };
  },
  "member.invited": async () => {
    const made = await asOwner((caller) =>
      inviteMember(api.db, caller, {
        email: `inv-${createId("evt").slice(4, 12)}@example.test`,
        role: "view_only",
        locale: "es",
      }),
    );
    return { resourceId: made.id, actor: { type: "user" } };
  },
  "member.invitation_revoked": async () => {
    const made = await asOwner(async (caller) => {
      const invitation = await inviteMember(api.db, caller, {
        email: `rev-${createId("evt").slice(4, 12)}@example.test`,
        role: "admin",
        locale: "en",
      });
      await revokeInvitation(api.db, caller, invitation.id);
      return invitation;
    });
    return { resourceId: made.id, actor: { type: "user" } };
  },
  "member.joined": async () => {
    const id = await joined("developer");
    return { resourceId: id, actor: { type: "user" } };
  },
  "member.role_changed": async () => {
    const id = await joined("developer");
    await asOwner((caller) => changeRole(api.db, caller, id, "admin"));
    return { resourceId: id, actor: { type: "user" } };
  },
  "member.removed": async () => {
    const id = await joined("support");
    await asOwner((caller) => removeMember(api.db, caller, id));
    return { resourceId: id, actor: { type: "user" } };
  },
  "member.sessions_ended": async () => {
    const caller = await owner();
    await asOwner(() => endOtherSessions(api.db, caller, null));
    return { resourceId: caller.userId, actor: { type: "user", id: caller.userId } };
  },
  "member.factor_added": async () => {
    const id = await joined("developer");
    const factorId = await asMember(id, () => appOf(id));
    return { resourceId: factorId, actor: { type: "user", id } };
  },
  "member.factor_removed": async () => {
    const id = await joined("developer");
    const factorId = await asMember(id, () => appOf(id));
    const me = { accountId: isv.account_id, userId: id, sessionId: null, role: "developer" as const };
    await asMember(id, () => removeFactor(api.db, me, factorId));
    return { resourceId: factorId, actor: { type: "user", id } };
  },
  "member.recovery_codes_renewed": async () => {
    const id = await joined("support");
    await asMember(id, () => appOf(id));
    await asMember(id, () => renewRecoveryCodes(api.db, { accountId: isv.account_id, userId: id, sessionId: null }));
    return { resourceId: id, actor: { type: "user", id } };
  },
  "member.factors_reset": async () => {
    const id = await joined("support");
    await asMember(id, () => appOf(id));
    await asOwner((caller) => resetMemberFactors(api.db, caller, id));
    return { resourceId: id, actor: { type: "user" } };
  },
  "merchant.sessions_revoked": async () => {
    await post(`/v1/merchants/${merchantId}/sessions/revoke`);
    return { resourceId: merchantId, actor: apiKey() };
  },
  "merchant.payouts_unfrozen": async () => {
    await setPayoutSettings(api.db, { id: merchantId, recipient: "merchant" }, { frozenAt: new Date() });
    await cli(["merchant", "payouts", merchantId, "--unfreeze"]);
    return { resourceId: merchantId, actor: { type: "cli" } };
  },
  "merchant.bank_account_approved": async () => {
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchantId));
    await setPayoutSettings(api.db, { id: merchantId, recipient: "merchant" }, { bankAccountHoldUntil: new Date() });
    await api.db
      .update(merchants)
      .set({
        verification: row!.verification.map((c) =>
          c.type === "bank_account" ? { ...c, status: "failed" as const } : c,
        ),
      })
      .where(eq(merchants.id, merchantId));
    await cli(["merchant", "payouts", merchantId, "--approve-bank"]);
    return { resourceId: merchantId, actor: { type: "cli" } };
  },
  "onboarding_link.created": async () => {
    const fresh = (await post("/v1/merchants", { phone: "+14155550123" })).json.id;
    await post("/v1/onboarding_links", { merchant_id: fresh, type: "account_onboarding" });
    return { resourceId: fresh, actor: apiKey() };
  },
  "report.created": async () => {
    const res = await post("/v1/reports", {
      type: "balance_transactions",
      interval: { start: Date.now() - 86_400_000, end: Date.now() },
    });
    expect(res.status, res.text).toBe(200);
    return { resourceId: res.json.id, actor: apiKey() };
  },
  "webhook.created": async () => {
    const hook = (await post("/v1/webhooks", { url: "https://hooks.example/created", scopes: ["merchant"] })).json;
    return { resourceId: hook.id, actor: apiKey() };
  },
  "webhook.deleted": async () => {
    const hook = (await post("/v1/webhooks", { url: "https://hooks.example/deleted", scopes: ["merchant"] })).json;
    await api.call("DELETE", `/v1/webhooks/${hook.id}`, { auth: isv.auth });
    return { resourceId: hook.id, actor: apiKey() };
  },
  "webhook_delivery.retried": async () => {
    const hook = (await post("/v1/webhooks", { url: "https://hooks.example/retried", scopes: ["merchant"] })).json;
    const deliveryId = createId("whd");
    await api.db.insert(webhookDeliveries).values({
      id: deliveryId,
      webhookId: hook.id,
      accountId: isv.account_id,
      eventId: createId("evt"),
      status: "failed",
    });
    const res = await post(`/v1/webhooks/${hook.id}/deliveries/${deliveryId}/retry`);
    expect(res.status, res.text).toBe(200);
    return { resourceId: deliveryId, actor: apiKey() };
  },
};

test("every action of the catalogue has its row here", () => {
  expect(Object.keys(cases).sort()).toEqual([...nonEventActions].sort());
});

test.each(Object.keys(cases) as Action[])("%s writes one audit entry naming who did it", async (action) => {
  const expected = await cases[action]();
  const entries = await api.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.resourceId, expected.resourceId)));
  expect(entries.length, `${action} on ${expected.resourceId}`).toBeGreaterThanOrEqual(1);
  const entry = entries.at(-1)!;
  expect(entry.actorType).toBe(expected.actor.type);
  if (expected.actor.id) expect(entry.actorId).toBe(expected.actor.id);
  if (expected.actor.via !== undefined) expect(entry.actorVia).toBe(expected.actor.via);
});
