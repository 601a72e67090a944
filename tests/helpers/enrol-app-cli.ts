// Sets up an authenticator app for a member, run as its own process with the server's environment
// (DATA_DIR, DATABASE_URL: the server's keys encrypt the secret), while no server holds an embedded
// database: prints the secret and the recovery codes as JSON. For tests that start a real server
// process (tests/logs-and-storage.test.ts).
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";

import { appFor } from "./sign-in";

const email = process.argv[2] ?? "";
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 1 });
try {
  const app = await appFor(handle.db, email);
  process.stdout.write(JSON.stringify(app));
} finally {
  await handle.close();
}
