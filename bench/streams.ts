import { setMaxListeners } from "node:events";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import autocannon from "autocannon";

import { startBenchServer } from "./harness";
import { approvedMerchant } from "./payments";
import { scaled } from "./short";

// Status streams under attack (issue 25, item 5): 1,000 clients open GET /v1/payment_requests/{id}/stream
// on one request (again after Retry-After when refused, a second after a close), while an ISV calls
// GET /v1/account. The server caps the streams (20 per request, 50 per address, 5,000 in all), so the
// ISV's latency and the server's memory should barely move.

export type StreamsBench = {
  kind: string;
  attackers: number;
  heldMax: number;
  refused: number;
  idleP50: number;
  idleP99: number;
  attackP50: number;
  attackP99: number;
  idleRssMb: number | null;
  attackRssMb: number | null;
};

/** Resident memory of a process and its descendants (the tsx wrapper and the server it starts), from /proc. */
export function rssMb(rootPid: number | undefined): number | null {
  if (!rootPid || !fs.existsSync("/proc/self/status")) return null;
  const read = (pid: string) => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n");
      const field = (name: string) => Number(status.find((l) => l.startsWith(name))?.replace(/\D+/g, "") ?? 0);
      return { pid: Number(pid), ppid: field("PPid:"), kb: field("VmRSS:") };
    } catch {
      return null;
    }
  };
  const all = fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(read)
    .filter((p) => p !== null);
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (tree.has(p.ppid) && !tree.has(p.pid)) {
        tree.add(p.pid);
        grew = true;
      }
  }
  return Math.round(all.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.kb, 0) / 1024);
}

export async function benchStreams(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  attackers = scaled(1_000, 50),
) {
  const server = await startBenchServer({ port: 3490, databaseUrl });
  try {
    const merchant = await approvedMerchant(server);
    const request = await server.call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1000 });
    const account = { url: `${server.base}/v1/account`, headers: { authorization: server.auth }, connections: 10 };
    await autocannon({ ...account, duration: scaled(2, 1) });
    const idle = await autocannon({ ...account, duration: scaled(5, 1) });
    const idleRss = rssMb(server.pid);

    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    let held = 0;
    let heldMax = 0;
    let refused = 0;
    const attacker = async () => {
      while (!stop.signal.aborted) {
        try {
          const res = await fetch(`${server.base}/v1/payment_requests/${request.id}/stream`, { signal: stop.signal });
          if (res.status === 200) {
            held++;
            heldMax = Math.max(heldMax, held);
            try {
              for await (const _ of res.body!) if (stop.signal.aborted) break;
            } finally {
              held--;
            }
          } else {
            refused++;
            await res.text();
            // As a browser's EventSource or a polite client would: not before Retry-After (or the end).
            await sleep(Number(res.headers.get("retry-after") ?? 10) * 1_000, undefined, { signal: stop.signal }).catch(
              () => undefined,
            );
            continue;
          }
        } catch {
          /* aborted, or the connection refused */
        }
        await sleep(1_000, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    };
    const running = Array.from({ length: attackers }, attacker);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const attack = await autocannon({ ...account, duration: scaled(5, 1) });
    const attackRss = rssMb(server.pid);
    stop.abort();
    await Promise.allSettled(running);
    return {
      kind,
      attackers,
      heldMax,
      refused,
      idleP50: idle.latency.p50,
      idleP99: idle.latency.p99,
      attackP50: attack.latency.p50,
      attackP99: attack.latency.p99,
      idleRssMb: idleRss,
      attackRssMb: attackRss,
    } satisfies StreamsBench;
  } finally {
    await server.stop();
  }
}

export function printStreams(results: StreamsBench[]) {
  console.log(
    "\nStatus streams under attack: N clients stream one request (again after Retry-After when refused), GET /v1/account at 10 connections:",
  );
  console.log(
    `${"database".padEnd(10)} ${"clients".padStart(8)} ${"held".padStart(6)} ${"refused".padStart(8)} ${"p50 idle".padStart(9)} ${"p99 idle".padStart(9)} ${"p50 attack".padStart(11)} ${"p99 attack".padStart(11)} ${"RSS idle MB".padStart(12)} ${"RSS attack MB".padStart(14)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(10)} ${String(r.attackers).padStart(8)} ${String(r.heldMax).padStart(6)} ${String(r.refused).padStart(8)} ${String(r.idleP50).padStart(9)} ${String(r.idleP99).padStart(9)} ${String(r.attackP50).padStart(11)} ${String(r.attackP99).padStart(11)} ${String(r.idleRssMb ?? "-").padStart(12)} ${String(r.attackRssMb ?? "-").padStart(14)}`,
    );
}
