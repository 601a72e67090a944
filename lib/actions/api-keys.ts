"use server";

import type { IsvMember } from "@/lib/dashboard/session";
import { createApiKey, revokeApiKey, rollApiKey } from "@/lib/domain/accounts/api-keys";
import { env } from "@/lib/env";

import { sensitiveChange } from "./sensitive-change";

// The Developers page's keys (docs/reference.md section 23): owners, admins and developers, from a
// sign-in of the last 15 minutes; a new secret is answered once and never stored.

const live = () => env.APP_ENV === "production";

const keyChange = <T>(work: (member: IsvMember) => Promise<T>) =>
  sensitiveChange("api_keys:write", "/dashboard/developers", work);

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
