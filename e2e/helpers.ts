import { execFileSync } from "node:child_process";
import path from "node:path";

/** A fresh ISV made the way an operator makes one: the CLI, while the server runs. */
export function createIsvWithCli(name = "E2E ISV") {
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const password = "e2e-password-123";
  const stdout = execFileSync(path.resolve("node_modules/.bin/tsx"), ["cli/index.ts", "isv", "create", "--name", name, "--email", email, "--password", password, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    encoding: "utf8",
  });
  const created = JSON.parse(stdout) as { account_id: string; account_sid: string; secret_key: string; user_email: string };
  return { ...created, password, auth: `Basic ${Buffer.from(`${created.account_sid}:${created.secret_key}`).toString("base64")}` };
}
