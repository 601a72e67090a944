import { eq } from "drizzle-orm";

import { generateAccountSid } from "../../auth/secrets";
import { accounts } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { randomBase62 } from "../../ids";
import { createIsv } from "./create-isv";

export const PLATFORM_ACCOUNT_ID = "acct_platform";
export const DEMO_EMAIL = "demo@example.com";

/**
 * The operator's account always exists. On a new sandbox database a demo ISV is created and its
 * credentials printed once, so that a newcomer's first curl works.
 */
export async function seedOnStart(db: Db) {
  await db
    .insert(accounts)
    .values({ id: PLATFORM_ACCOUNT_ID, type: "platform", sid: generateAccountSid(), name: "Platform" })
    .onConflictDoNothing();
  if (env.APP_ENV !== "sandbox" || env.SEED_DEMO !== "1") return;
  const [anyIsv] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.type, "isv")).limit(1);
  if (anyIsv) return;
  const password = randomBase62(16);
  try {
    const demo = await createIsv(db, { name: "Demo ISV", email: DEMO_EMAIL, password, live: false });
    const basic = Buffer.from(`${demo.account_sid}:${demo.secret_key}`).toString("base64");
    console.log(
      [
        "",
        "  A demo ISV was created on this new sandbox database. Its credentials are shown only now:",
        `    account_id   ${demo.account_id}`,
        `    account_sid  ${demo.account_sid}`,
        `    secret_key   ${demo.secret_key}`,
        `    sign-in      ${DEMO_EMAIL} / ${password}`,
        "  Try:",
        `    curl -u ${demo.account_sid}:${demo.secret_key} ${env.PUBLIC_BASE_URL}/v1/account`,
        `    (or: curl -H "Authorization: Basic ${basic}" ...)`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    // Another instance seeded it first.
    if (!(error instanceof AppError && error.code === "email_taken")) throw error;
  }
}
