import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import { eq } from "drizzle-orm";

import { generateAccountSid } from "../../auth/secrets";
import { clock } from "../../clock";
import { accounts } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { randomBase62 } from "../../ids";
import { createIsv } from "./create-isv";

export const PLATFORM_ACCOUNT_ID = "acct_platform";
export const DEMO_EMAIL = "demo@example.com";

/** Where the demo ISV's credentials are written (mode 0600), in the data directory. */
export const demoCredentialsFile = (dataDir: string) => path.join(dataDir, "demo-credentials.env");

/**
 * The operator's account always exists. On a new sandbox database a demo ISV is created, so that a
 * newcomer's first curl works. Its credentials are written to a file only its owner can read
 * (`demo-credentials.env` in the data directory, ready to `source`), never to the console or the
 * logs, which a deployment ships elsewhere: the console says where the file is.
 */
export async function seedOnStart(
  db: Db,
  options: { seedDemo?: boolean; dataDir?: string; print?: (text: string) => void } = {},
) {
  const seedDemo = options.seedDemo ?? (env.APP_ENV === "sandbox" && env.SEED_DEMO === "1");
  const print = options.print ?? ((text: string) => console.log(text));
  await db
    .insert(accounts)
    .values({ id: PLATFORM_ACCOUNT_ID, type: "platform", sid: generateAccountSid(), name: "Platform" })
    .onConflictDoNothing();
  if (!seedDemo) return;
  const [anyIsv] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.type, "isv")).limit(1);
  if (anyIsv) return;
  const password = randomBase62(16);
  try {
    const demo = await createIsv(db, { name: "Demo ISV", email: DEMO_EMAIL, password, live: false });
    const file = demoCredentialsFile(options.dataDir ?? env.DATA_DIR);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      [
        `# The demo ISV of this sandbox database, created ${clock.now().toISOString()}.`,
        "# Load it into your shell with: source " + file,
        `ACCOUNT_ID=${demo.account_id}`,
        `ACCOUNT_SID=${demo.account_sid}`,
        `SECRET_KEY=${demo.secret_key}`,
        `DEMO_EMAIL=${DEMO_EMAIL}`,
        `DEMO_PASSWORD=${password}`,
        "",
      ].join("\n"),
      { mode: 0o600 },
    );
    await chmod(file, 0o600);
    print(
      [
        "",
        "  A demo ISV was created on this new sandbox database. Its credentials (API key, dashboard",
        `  sign-in) are in ${file}, readable only by you. Try:`,
        `    source ${file}`,
        `    curl -u "$ACCOUNT_SID:$SECRET_KEY" ${env.PUBLIC_BASE_URL}/v1/account`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    // Another instance seeded it first.
    if (!(error instanceof AppError && error.code === "email_taken")) throw error;
  }
}
