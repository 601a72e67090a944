import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

import * as secrets from "@/lib/auth/secrets";
import { outbox, passwordResets, users } from "@/lib/db/schema";
import { requestPasswordReset, resetPassword } from "@/lib/domain/accounts/password-reset";
import { endUserSession } from "@/lib/domain/accounts/sign-in";

import { startTestApi, type TestApi } from "../helpers/api";
import { signInWithCode } from "../helpers/sign-in";

// "Forgot your password?" (docs/reference.md section 23): a single-use, 30-minute link by e-mail
// (only its digest kept), the same answer for an unknown e-mail, three links an hour at most, and a
// reset that ends every session the user had (a dashboard's or an API Bearer token).

// Every password hashed, counted: a made-up link must cost no hash.
vi.mock("@/lib/auth/secrets", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/auth/secrets")>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

/** The client address of the tests that are not about limits (each limit test has its own). */
const HERE = "198.51.100.1";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

const linkOf = async (email: string) => {
  const mails = await api.db.select().from(outbox).where(eq(outbox.to, email));
  const resets = mails.filter((m) => m.kind === "password_reset");
  return resets.map((m) => m.text.match(/\/sign-in\/reset\/([0-9A-Za-z]+)/)![1]!);
};

describe("password reset", () => {
  test("a link by e-mail resets the password once; every earlier session ends; the old password no longer works", async () => {
    const isv = await api.newIsv("Reset ISV");
    const signIn = (password: string) => signInWithCode(api, { email: isv.user_email, password });
    const before = await signIn(isv.password);
    expect(before.status).toBe(200);
    const oldToken = `Bearer ${before.json.access_token}`;
    expect((await api.call("GET", "/v1/account", { auth: oldToken })).status).toBe(200);

    await requestPasswordReset(api.db, isv.user_email.toUpperCase(), "en", HERE);
    const [token] = await linkOf(isv.user_email);
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
    // Only the digest is kept.
    const [row] = await api.db.select().from(passwordResets);
    expect(JSON.stringify(await api.db.select().from(passwordResets))).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(30 * 60_000);

    // Too short: refused, the link still usable.
    await expect(resetPassword(api.db, token!, "short", HERE)).rejects.toMatchObject({ code: "parameter_invalid" });
    // A token signed before the reset's second ends with it.
    await new Promise((r) => setTimeout(r, 1_100));
    await resetPassword(api.db, token!, "a brand new password", HERE);
    await expect(resetPassword(api.db, token!, "another new password", HERE)).rejects.toMatchObject({
      code: "password_reset_invalid",
    });
    expect((await api.call("GET", "/v1/account", { auth: oldToken })).status).toBe(401);
    expect((await signIn(isv.password)).status).toBe(401);
    const after = await signIn("a brand new password");
    expect(after.status).toBe(200);
    // Signed in right after the reset: the new session works.
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${after.json.access_token}` })).status).toBe(200);
  });

  test("an unknown e-mail sends nothing; a fourth link in an hour is not sent; an expired link is refused", async () => {
    const isv = await api.newIsv("Reset ISV 2");
    const count = async () => (await api.db.select().from(outbox)).filter((m) => m.kind === "password_reset").length;
    const sentBefore = await count();
    await requestPasswordReset(api.db, "nobody-here@example.test", "en", HERE);
    expect(await count()).toBe(sentBefore);

    for (let i = 0; i < 4; i++) await requestPasswordReset(api.db, isv.user_email, "es", HERE);
    const links = await linkOf(isv.user_email);
    expect(links).toHaveLength(3);
    const [mail] = await api.db.select().from(outbox).where(eq(outbox.to, isv.user_email));
    expect(mail!.subject).toBe("Restablece tu contraseña");

    // Past its 30 minutes: refused, the password unchanged.
    const [user] = await api.db.select().from(users).where(eq(users.email, isv.user_email));
    const later = new Date(Date.now() + 30 * 60_000 + 1);
    await expect(resetPassword(api.db, links[0]!, "a brand new password", HERE, later)).rejects.toMatchObject({
      code: "password_reset_invalid",
    });
    const [unchanged] = await api.db.select().from(users).where(eq(users.email, isv.user_email));
    expect(unchanged!.passwordHash).toBe(user!.passwordHash);
    expect(unchanged!.sessionsValidAfter).toBeNull();

    // One link used: the others stop working too.
    await resetPassword(api.db, links[1]!, "a brand new password", HERE);
    await expect(resetPassword(api.db, links[2]!, "yet another password", HERE)).rejects.toMatchObject({
      code: "password_reset_invalid",
    });
  });

  test("a made-up or used link is refused before any password is hashed", async () => {
    const isv = await api.newIsv("Reset ISV 3");
    await requestPasswordReset(api.db, isv.user_email, "en", HERE);
    const [token] = await linkOf(isv.user_email);
    const hashes = vi.mocked(secrets.hashPassword);
    hashes.mockClear();
    // The real token with its last character changed (never to itself: a token ending in "0" made
    // the "made-up" one real, once in 64 runs).
    const changedLast = `${token!.slice(0, 42)}${token!.endsWith("0") ? "1" : "0"}`;
    for (const madeUp of ["x".repeat(43), changedLast, ""])
      await expect(resetPassword(api.db, madeUp, "a brand new password", "198.51.100.7")).rejects.toMatchObject({
        code: "password_reset_invalid",
      });
    expect(hashes).not.toHaveBeenCalled();
    await resetPassword(api.db, token!, "a brand new password", "198.51.100.7");
    expect(hashes).toHaveBeenCalledTimes(1);
    await expect(resetPassword(api.db, token!, "a brand new password", "198.51.100.7")).rejects.toMatchObject({
      code: "password_reset_invalid",
    });
    expect(hashes).toHaveBeenCalledTimes(1);
  });

  test("forgot-password and the reset form are limited like sign-in: per e-mail and address, and per address", async () => {
    const isv = await api.newIsv("Reset ISV 4");
    const sent = async () => (await linkOf(isv.user_email)).length;
    // Ten asks for one e-mail from one address, then refused (nothing sent); another address still asks.
    for (let i = 0; i < 10; i++) await requestPasswordReset(api.db, isv.user_email, "en", "198.51.100.20");
    const before = await sent();
    expect(before).toBe(3);
    await expect(requestPasswordReset(api.db, isv.user_email, "en", "198.51.100.20")).rejects.toMatchObject({
      code: "too_many_sign_in_attempts",
    });
    await expect(requestPasswordReset(api.db, isv.user_email, "en", "198.51.100.21")).resolves.toBeUndefined();

    // Fifty made-up links from one address, then even a live one is refused from there (unused);
    // from another address it works.
    for (let i = 0; i < 49; i++)
      await expect(
        resetPassword(api.db, `made-up-${i}`, "a brand new password", "198.51.100.30"),
      ).rejects.toMatchObject({ code: "password_reset_invalid" });
    const [live] = await linkOf(isv.user_email);
    await expect(resetPassword(api.db, live!, "a brand new password", "198.51.100.30")).rejects.toMatchObject({
      code: "too_many_sign_in_attempts",
    });
    const [row] = await api.db.select().from(users).where(eq(users.email, isv.user_email));
    expect(row!.sessionsValidAfter).toBeNull();
    await expect(resetPassword(api.db, live!, "a brand new password", "198.51.100.31")).resolves.toMatchObject({
      userId: row!.id,
    });
  });
});

describe("sign-out", () => {
  test("ends the sign-in's session at once: its token opens nothing more as a Bearer, another sign-in's still does", async () => {
    const isv = await api.newIsv("Sign-out ISV");
    const signIn = async () => {
      const res = await signInWithCode(api, { email: isv.user_email, password: isv.password });
      expect(res.status).toBe(200);
      return res.json.access_token as string;
    };
    const [mine, other] = [await signIn(), await signIn()];
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${mine}` })).status).toBe(200);
    // What the dashboard's sign-out does with its cookie's token.
    expect(await endUserSession(api.db, mine)).toBe(true);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${mine}` })).status).toBe(401);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${other}` })).status).toBe(200);
    // Twice, or a token that is not a session's: nothing more ends.
    expect(await endUserSession(api.db, mine)).toBe(false);
    expect(await endUserSession(api.db, "not-a-token")).toBe(false);
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${other}` })).status).toBe(200);
  });
});
