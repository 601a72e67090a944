import { and, eq, isNotNull } from "drizzle-orm";

import { bareHost, isServiceHost } from "../../branding/hosts";
import { accounts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** The ISV whose verified custom domain this host is; null on the service's own host (or an unknown one). */
export async function isvForHost(db: DbOrTx, host: string) {
  if (isServiceHost(host)) return null;
  const [isv] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.customDomain, bareHost(host)), isNotNull(accounts.customDomainVerifiedAt)));
  return isv ?? null;
}
