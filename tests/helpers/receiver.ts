import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { headers: Record<string, string>; body: string; at: number };

/**
 * A real webhook receiver on 127.0.0.1. `answer` decides each response (status, delay, or `after`:
 * a promise the answer waits for, to hold deliveries on the wire for as long as a test needs); every
 * request is recorded.
 */
export async function startReceiver(
  answer: (
    req: Received,
    count: number,
  ) => { status: number; delayMs?: number; after?: Promise<unknown>; headers?: Record<string, string> } = () => ({
    status: 200,
  }),
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: Received = {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(entry);
      const { status, delayMs, after, headers } = answer(entry, received.length);
      const respond = () => {
        if (!res.destroyed) res.writeHead(status, { "content-type": "text/plain", ...headers }).end(`status ${status}`);
      };
      void Promise.resolve(after).then(() => setTimeout(respond, delayMs ?? 0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    /** Waits until `predicate` holds for what was received (bounded). */
    async waitFor(predicate: (r: Received[]) => boolean, timeoutMs = 15_000) {
      const start = Date.now();
      while (!predicate(received)) {
        if (Date.now() - start > timeoutMs)
          throw new Error(`receiver: condition not met in ${timeoutMs} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
