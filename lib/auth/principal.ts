import type { SignInFactor } from "../db/schema";
import type { KeyPermissions, Role } from "./permissions";

// Who is calling: resolved by lib/api's authentication, read by domain functions that scope by it.

export type AccountType = "platform" | "isv" | "merchant";

export type Principal =
  | {
      kind: "api_key";
      accountId: string;
      accountType: AccountType;
      parentId: string | null;
      /** The key that authenticated (section 23). */
      keyId?: string;
      /** A restricted key's permissions; null or absent: a standard key. */
      permissions?: KeyPermissions | null;
    }
  | {
      kind: "user";
      accountId: string;
      accountType: AccountType;
      parentId: string | null;
      userId: string;
      /** The member's role in its account's team (section 23). */
      role: Role;
      /** When the user signed in with the password (the token's `iat`, Unix seconds). */
      signedInAt: number | null;
      /** The second factor of this sign-in (null: a password alone); the audit log names it. */
      factor?: SignInFactor | null;
    }
  | { kind: "onboarding"; accountId: string; merchantId: string; linkId: string; startedAt?: number }
  /** The tokenizer frame, by a merchant's publishable key: it may only create card tokens. */
  | { kind: "publishable"; accountId: string; merchantId: string };

/**
 * The namespace of a caller's rate limit and idempotency keys: the ISV's own key and users share
 * the account's; a merchant's onboarding session and its tokenizer key each have their own, so a
 * merchant can neither exhaust its ISV's limit nor block its ISV's keys (nor the other way round).
 */
export function principalScope(principal: Principal): string {
  switch (principal.kind) {
    case "onboarding":
      return `${principal.accountId}:session:${principal.merchantId}`;
    case "publishable":
      return `${principal.accountId}:tokenizer:${principal.merchantId}`;
    default:
      return principal.accountId;
  }
}
