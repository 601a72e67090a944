import { getDatabase } from "../db/client";
import { log } from "../log";
import { startJobPools } from "./pools";
import { scheduleSettlement } from "../domain/settlements/run-settlement";
import { scheduleStatements } from "../domain/statements/run-statements";
import { schedulePurge } from "../domain/retention/purge";

// `npm run worker`: a worker on its own (against PostgreSQL; the embedded database belongs to the
// server process, which runs its own worker).
const handle = await getDatabase();
await scheduleSettlement(handle.db);
await scheduleStatements(handle.db);
await schedulePurge(handle.db);
const worker = startJobPools(handle);
log.info({ workers: worker.ids, database: handle.kind }, "worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop();
    await handle.close();
    process.exit(0);
  });
}
