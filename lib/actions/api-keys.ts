"use server";
import { revalidatePath } from "next/cache";

import { asIsvUser, type IsvMember } from "@/lib/dashboard/session";
import { createApiKey, revokeApiKey, rollApiKey } from "@/lib/domain/accounts/api-keys";
import { assertFreshSignIn } from "@/lib/domain/team/members";
import { env } from "@/lib/env";

import { type Attempt, attempt } from "./result";

// The Developers page's keys (docs/reference.md section 23): owners, admins and developers, from a
// sign-in of the last 15 minutes; a new secret is answered once and never stored.

const live = () => env.APP_ENV === "production";

const keyChange = <T>(work: (member: IsvMember) => Promise<T>): Promise<Attempt<T>> =>
  asIsvUser("api_keys:write", async (member) => {
    const done = await attempt(async () => {
      assertFreshSignIn(member.signedInAt);
      return work(member);
    });
    if (done.ok) revalidatePath("/dashboard/developers", "page");
    return done;
  });

export async function createKeyAction(input: { name: string; permissions: Record<string, string> | null }) {
  return keyChange(async (member) => {
    const made = await createApiKey(member.db, member.account.id, input, { live: live() });
    return { secret: made.secret, sid: made.account_sid };
  });
}

export async function rollKeyAction(keyId: string, expiresInHours: number) {
  return keyChange(async (member) => {
    const made = await rollApiKey(member.db, member.account.id, keyId, expiresInHours, { live: live() });
    return { secret: made.secret, sid: made.account_sid };
  });
}

export async function revokeKeyAction(keyId: string) {
  return keyChange((member) => revokeApiKey(member.db, member.account.id, keyId));
}
