import type { Principal } from "../auth/principal";
import type { AccountRow } from "../db/schema";
import { type DatabaseHandle, type Db } from "../db/types";

export type AppEnv = {
  Variables: {
    requestId: string;
    db: Db;
    handle: DatabaseHandle;
    principal: Principal | undefined;
    /** The caller's account row when authentication already read it (API keys); see callerAccount. */
    callerAccount?: AccountRow;
  };
};
