import type { Principal } from "../auth/principal";
import type { AccountRow } from "../db/schema";
import { type DatabaseHandle, type Db } from "../db/types";

export type AppEnv = {
  Variables: {
    requestId: string;
    db: Db;
    handle: DatabaseHandle;
    principal: Principal | undefined;
    /** The client's address (behind TRUST_PROXY's proxies, the one they forwarded): limits and logs key on it. */
    clientAddress: string;
    /** The caller's account row when authentication already read it (API keys); see callerAccount. */
    callerAccount?: AccountRow;
    /** The caller's account's pinned API version, when authentication read it (section 22). */
    accountApiVersion?: string;
    /** The API version this request is answered in (the Onb-Version header, else the account's, else the latest). */
    apiVersion: string;
    /**
     * A request that calls the processor, sent with an Idempotency-Key: the key's digest in the
     * caller's namespace, which the work it starts keeps, so that a retry after a crash resumes it.
     */
    requestKey?: string;
  };
};
