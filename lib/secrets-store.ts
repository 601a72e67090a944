import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { env } from "./env";

// Keys for signing JWTs and encrypting sensitive fields. Production reads them from the
// environment (lib/env.ts refuses to start without them); development and sandbox generate them
// once into DATA_DIR/secrets.json (mode 0600) so that tokens survive a restart.
type Stored = { jwt_secret: string; encryption_key: string };

/** The keys read, and the data directory they were read for (the test suites change it between files). */
let cached: (Stored & { dataDir: string }) | undefined;

function loadOrCreate(): Stored {
  const file = path.join(env.DATA_DIR, "secrets.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Stored;
  } catch {
    const fresh: Stored = {
      jwt_secret: randomBytes(32).toString("base64url"),
      encryption_key: randomBytes(32).toString("hex"),
    };
    fs.mkdirSync(env.DATA_DIR, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, JSON.stringify(fresh), { flag: "wx", mode: 0o600 });
      return fresh;
    } catch {
      // Another process wrote it first: use theirs.
      return JSON.parse(fs.readFileSync(file, "utf8")) as Stored;
    }
  }
}

/** The platform's keys (the same object while they are the same: callers derive theirs from it once). */
export function platformSecrets(): Stored {
  if (cached?.dataDir === env.DATA_DIR) return cached;
  if (env.JWT_SECRET && env.ENCRYPTION_KEY) {
    cached = { jwt_secret: env.JWT_SECRET, encryption_key: env.ENCRYPTION_KEY, dataDir: env.DATA_DIR };
  } else {
    const stored = loadOrCreate();
    cached = {
      jwt_secret: env.JWT_SECRET ?? stored.jwt_secret,
      encryption_key: env.ENCRYPTION_KEY ?? stored.encryption_key,
      dataDir: env.DATA_DIR,
    };
  }
  return cached;
}
