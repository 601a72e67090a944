import http from "node:http";

import { readLockOwner } from "../lib/db/lock";
import { env } from "../lib/env";
import type { CommandResult, ParsedArgs } from "./commands";
import { operatorSocketPath } from "./operator-socket-path";

// The operator CLI. Against PostgreSQL it connects directly. On the embedded database it never
// opens a data directory that a running server holds: it sends the command to that server.
// The commands (and the whole domain they import) load only when this process runs them itself:
// a command sent to the server starts in a third of the time.
async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "help") {
    process.stdout.write((await import("./usage")).usage);
    return 0;
  }
  if (argv[0] === "webhooks" && argv[1] === "listen")
    return runListen((await import("./commands")).parseArgs(argv).flags);
  let result: CommandResult;
  if (!env.DATABASE_URL && readLockOwner(env.DATA_DIR) !== null) {
    result = await viaServer(argv);
  } else {
    const [{ openDatabase }, { runCommand }] = await Promise.all([import("../lib/db/client"), import("./commands")]);
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

async function runListen(flags: ParsedArgs["flags"]) {
  const forwardTo = flags["forward-to"];
  const accountSid = flags["account-sid"] ?? process.env.ACCOUNT_SID;
  const secretKey = flags["secret-key"] ?? process.env.SECRET_KEY;
  if (!forwardTo || !accountSid || !secretKey) {
    process.stderr.write(
      "webhooks listen needs --forward-to <url> and the sandbox credentials (--account-sid and --secret-key, or ACCOUNT_SID and SECRET_KEY)\n",
    );
    return 2;
  }
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  const { listen } = await import("./webhooks-listen");
  await listen(
    {
      apiUrl: flags["api-url"] ?? env.PUBLIC_BASE_URL,
      accountSid,
      secretKey,
      forwardTo,
      maxEvents: flags["max-events"] ? Number(flags["max-events"]) : undefined,
    },
    controller.signal,
  );
  return 0;
}

function viaServer(argv: string[]): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: operatorSocketPath(),
        path: "/run",
        method: "POST",
        headers: { "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as CommandResult);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
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
