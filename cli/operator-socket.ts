import fs from "node:fs";
import http from "node:http";

import { type DatabaseHandle } from "@/lib/db/types";

import { runCommand } from "./commands";
import { operatorSocketPath } from "./operator-socket-path";

/**
 * While the server holds the embedded database, the CLI runs its commands here instead of opening
 * the data directory a second time. A Unix socket in DATA_DIR (mode 0600): only the user who owns
 * the data can reach it, and nothing listens on the network.
 */
export async function startOperatorSocket(handle: DatabaseHandle) {
  const socketPath = operatorSocketPath();
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/run") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const { argv } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { argv: string[] };
      const result = await runCommand(handle, argv);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
    } catch (error) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          code: 1,
          stdout: "",
          stderr: `Error: ${error instanceof Error ? error.message : String(error)}\n`,
        }),
      );
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () => {
      server.close();
      fs.rmSync(socketPath, { force: true });
    },
  };
}
