import { and, eq, isNull } from "drizzle-orm";

import { users } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { newRecoveryCodes } from "@/lib/domain/team/recovery-codes";
import { confirmTotp, startTotp, totpCode, totpStep } from "@/lib/domain/team/totp";

import type { TestApi } from "./api";

// Owners and admins sign in with a second factor (docs/reference.md section 23). A test signs in as
// a member the way the member would: an authenticator app set up once (a secret this process
// keeps), then each sign-in with the app's code. A code is used once, so a test that signs in again
// within the same 30 seconds takes the next step's code (accepted: clocks drift by a step), then a
// recovery code.

type App = { secret: string; lastStep: number; codes: string[] };
const apps = new Map<string, App>();

/** Sets up an authenticator app for the member with this e-mail (once per process): what signs it in. */
export async function appFor(db: Db, email: string): Promise<App> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.removedAt)));
  if (!user) throw new Error(`no member ${email}`);
  const known = apps.get(user.id);
  if (known) return known;
  const started = await startTotp(db, { userId: user.id, email });
  const at = new Date(Date.now() - 30_000);
  await confirmTotp(db, user.id, started.factorId, totpCode(started.secret, at), at);
  const app = { secret: started.secret, lastStep: totpStep(at), codes: await newRecoveryCodes(db, user.id) };
  apps.set(user.id, app);
  return app;
}

/** The next code the member's app gives: this step's, else the next one's, else a recovery code. */
export function nextCode(app: App) {
  const now = totpStep(new Date());
  const step = Math.max(app.lastStep + 1, now);
  if (step > now + 1) return app.codes.pop() ?? "";
  app.lastStep = step;
  return totpCode(app.secret, new Date(step * 30_000));
}

/** `POST /v1/auth/token` as the member, with its app's code: the answer. */
export async function signInWithCode(api: TestApi, member: { email: string; password: string }, init = {}) {
  const app = await appFor(api.db, member.email);
  return api.call("POST", "/v1/auth/token", {
    body: { email: member.email, password: member.password, code: nextCode(app) },
    ...init,
  });
}

/** An owner's (or any member's) Bearer header, signed in with its second factor. */
export async function memberBearer(api: TestApi, member: { email: string; password: string }) {
  const res = await signInWithCode(api, member);
  if (res.status !== 200) throw new Error(`sign-in refused: ${res.status} ${res.text}`);
  return `Bearer ${res.json.access_token}`;
}
