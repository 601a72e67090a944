import { getDatabase } from "../db/client";
import { log } from "../log";
import { startBackground } from "./start";

// `npm run worker`: a worker on its own (against PostgreSQL; the embedded database belongs to the
// server process, which runs its own worker).
const handle = await getDatabase();
const worker = (await startBackground(handle))!;
log.info({ workers: worker.ids, database: handle.kind }, "worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop();
    await handle.close();
    process.exit(0);
  });
}
