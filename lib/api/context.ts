import type { DatabaseHandle, Db } from "../db/client";
import type { Principal } from "../auth/principal";

export type AppEnv = {
  Variables: {
    requestId: string;
    db: Db;
    handle: DatabaseHandle;
    principal: Principal | undefined;
  };
};
