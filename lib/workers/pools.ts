import { type DatabaseHandle } from "../db/types";
import { env } from "../env";
import { startWorker } from "../jobs/runner";
import { jobRegistry } from "./registry";

/**
 * The workers of one process, in two pools: webhook deliveries wait on other people's servers
 * (I/O), so they run many at once, with caps per destination host and per account so that one
 * slow endpoint or one busy ISV holds only its own share; everything else (underwriting,
 * settlement, statements: database and CPU work) runs a few at a time beside them.
 */
export function startJobPools(handle: DatabaseHandle, options: { pollMs?: number; leaseMs?: number } = {}) {
  const { webhook_delivery, ...rest } = jobRegistry;
  const leaseMs = options.leaseMs ?? env.JOB_LEASE_MS;
  const webhooks = startWorker(handle, {
    types: { webhook_delivery },
    concurrency: env.WEBHOOK_CONCURRENCY,
    keyLimits: { "host:": env.WEBHOOK_HOST_CONCURRENCY, "account:": env.WEBHOOK_ACCOUNT_CONCURRENCY },
    pollMs: options.pollMs,
    leaseMs,
  });
  const others = startWorker(handle, { types: rest, concurrency: 8, pollMs: options.pollMs, leaseMs });
  return {
    ids: [webhooks.id, others.id],
    async stop() {
      await Promise.all([webhooks.stop(), others.stop()]);
    },
  };
}
