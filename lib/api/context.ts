import type { DatabaseHandle, Db } from "../db/client";

export type AccountType = "platform" | "isv" | "merchant";

export type Principal =
  | { kind: "api_key"; accountId: string; accountType: AccountType; parentId: string | null }
  | { kind: "user"; accountId: string; accountType: AccountType; parentId: string | null; userId: string }
  | { kind: "onboarding"; accountId: string; merchantId: string; linkId: string };

export type AppEnv = {
  Variables: {
    requestId: string;
    db: Db;
    handle: DatabaseHandle;
    principal: Principal | undefined;
  };
};
