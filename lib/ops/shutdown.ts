// Graceful shutdown (docs/reference.md section 17): one signal for the process, which the status
// streams listen to (they end with a reconnect hint instead of being cut), and the grace the
// in-flight work gets before the process exits anyway.

export const SHUTDOWN_GRACE_MS = 25_000;
/** How soon a client whose stream ended for a restart should reconnect (to another instance). */
export const RECONNECT_HINT_MS = 1000;
/**
 * How long a connection accepted just before the listener closed has to send its request before
 * idle connections are closed (Node counts a connection with no request yet as idle).
 */
export const ACCEPTED_REQUEST_SETTLE_MS = 250;

const controller = new AbortController();
export const shutdownSignal: AbortSignal = controller.signal;

export function beginShutdown() {
  controller.abort();
}
