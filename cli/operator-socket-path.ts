import path from "node:path";

import { env } from "../lib/env";

/** Where a server holding the embedded database listens for the CLI (cli/operator-socket.ts). */
export function operatorSocketPath(dataDir = env.DATA_DIR) {
  return path.join(dataDir, "operator.sock");
}
