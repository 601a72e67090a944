import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Each test file gets its own data directory (embedded database, generated keys) and quiet logs.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "onb-test-"));
process.env.LOG_LEVEL ??= "silent";
process.env.SEED_DEMO = "0";
// Webhook retries in tests: the contract's schedule, shortened to milliseconds.
process.env.WEBHOOK_RETRY_SCHEDULE_MS ??= "150,150,150,150,150,150,150";
