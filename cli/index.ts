import http from "node:http";
import { env } from "../lib/env";
import { openDatabase } from "../lib/db/client";
import { readLockOwner } from "../lib/db/lock";
import { runCommand, usage, type CommandResult } from "./commands";
import { operatorSocketPath } from "./operator-socket";

// The operator CLI. Against PostgreSQL it connects directly. On the embedded database it never
// opens a data directory that a running server holds: it sends the command to that server.
async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "help") {
    process.stdout.write(usage);
    return 0;
  }
  let result: CommandResult;
  if (!env.DATABASE_URL && readLockOwner(env.DATA_DIR) !== null) {
    result = await viaServer(argv);
  } else {
    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
    try {
      result = await runCommand(handle, argv);
    } finally {
      await handle.close();
    }
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.code;
}

function viaServer(argv: string[]): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: operatorSocketPath(), path: "/run", method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as CommandResult);
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on("error", (error) =>
      reject(new Error(`The server holding ${env.DATA_DIR} did not answer on its operator socket (${error.message})`)),
    );
    req.end(JSON.stringify({ argv }));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
