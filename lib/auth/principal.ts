// Who is calling: resolved by lib/api's authentication, read by domain functions that scope by it.

export type AccountType = "platform" | "isv" | "merchant";

export type Principal =
  | { kind: "api_key"; accountId: string; accountType: AccountType; parentId: string | null }
  | { kind: "user"; accountId: string; accountType: AccountType; parentId: string | null; userId: string }
  | { kind: "onboarding"; accountId: string; merchantId: string; linkId: string }
  /** The tokenizer frame, by a merchant's publishable key: it may only create card tokens. */
  | { kind: "publishable"; accountId: string; merchantId: string };
