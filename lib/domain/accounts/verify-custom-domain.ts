import { Resolver } from "node:dns/promises";

import { eq } from "drizzle-orm";

import { forgetCustomDomains } from "../../branding/hosts";
import { customDomainRecord } from "../../branding/hosts";
import { clock } from "../../clock";
import { isUniqueViolation } from "../../db/errors";
import { one } from "../../db/one";
import { accounts } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalidState } from "../../errors";
import { recordAudit } from "../audit/record-audit";
import { getAccount } from "./get-account";

export type TxtResolver = (name: string) => Promise<string[][]>;

// One try, 3 seconds: the ISV is waiting on the answer (and can ask again).
const resolveTxt: TxtResolver = (name) => new Resolver({ timeout: 3000, tries: 1 }).resolveTxt(name);

/**
 * Proves that the ISV controls its custom domain: the TXT record customDomainRecord() names must
 * hold the account's token. Then, and only then, the domain serves its pages (and links use it).
 * A domain another account has verified first stays theirs (409 custom_domain_taken). In sandbox,
 * POST /v1/test_helpers/account/custom_domain/verify skips the lookup.
 */
export async function verifyCustomDomain(
  db: Db,
  accountId: string,
  options: { skipLookup?: boolean; resolver?: TxtResolver } = {},
) {
  const account = await getAccount(db, accountId);
  const record = customDomainRecord(account);
  if (!record) throw invalidState("This account has no custom domain: set defaults.custom_domain first");
  if (account.customDomainVerifiedAt) return account;
  if (!options.skipLookup) {
    let found: string[] = [];
    let failure: string | null = null;
    try {
      found = (await (options.resolver ?? resolveTxt)(record.name)).map((chunks) => chunks.join(""));
    } catch (error) {
      failure = (error as { code?: string }).code ?? "lookup failed";
    }
    if (!found.includes(record.value)) {
      throw new AppError(
        "custom_domain_unverified",
        `No TXT record ${record.name} with the value ${record.value} was found (${failure ?? `${found.length} other record${found.length === 1 ? "" : "s"}`}); DNS changes can take a while to appear`,
        { param: "defaults.custom_domain" },
      );
    }
  }
  try {
    const updated = await db.transaction(async (tx) => {
      const row = one(
        await tx
          .update(accounts)
          .set({ customDomainVerifiedAt: clock.now(), updatedAt: clock.now() })
          .where(eq(accounts.id, accountId))
          .returning(),
      );
      await recordAudit(tx, {
        accountId,
        action: "account.custom_domain_verified",
        resourceId: accountId,
        fields: ["custom_domain_verified_at"],
      });
      return row;
    });
    forgetCustomDomains();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("custom_domain_taken", `${account.customDomain} is already verified by another account`, {
        param: "defaults.custom_domain",
      });
    throw error;
  }
}
