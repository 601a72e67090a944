import { getDatabase } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import { must } from "../must";
import { registerDatabaseMetrics, serveMetrics } from "../ops/metrics";
import { startBackground } from "./start";

// `npm run worker`: a worker on its own (against PostgreSQL; the embedded database belongs to the
// server process, which runs its own worker). With METRICS_PORT, its metrics (process, jobs waiting,
// webhook deliveries by outcome, its database pool) on that port, like the server's.
const handle = await getDatabase();
const worker = must(await startBackground(handle), "the worker (WORKER is not off here)");
registerDatabaseMetrics(handle);
const metricsServer = env.METRICS_PORT ? serveMetrics(env.METRICS_PORT, env.METRICS_HOST) : undefined;
log.info({ workers: worker.ids, database: handle.kind, metrics_port: env.METRICS_PORT }, "worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    metricsServer?.close();
    await worker.stop();
    await handle.close();
    process.exit(0);
  });
}
