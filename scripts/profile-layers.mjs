#!/usr/bin/env node
// Where a server's CPU went, by layer, from a V8 CPU profile (`BENCH_PROFILE_DIR=dir npm run bench`
// with BENCH_ONLY=api, or `node --cpu-prof --import tsx server.ts`):
//
//   node scripts/profile-layers.mjs <file.cpuprofile> [--skip=seconds] [--per-request=µs] [--top=n]
//
// --skip leaves out the start (module loading, the warm-up); --per-request turns the shares into
// microseconds per request (the bench prints the server's CPU per request); --top also lists the
// functions with the most self time. docs/decisions.md ("The API's own cost") reads one.
import fs from "node:fs";

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/profile-layers.mjs <file.cpuprofile> [--skip=s] [--per-request=µs] [--top=n]");
  process.exit(2);
}
const option = (name, fallback) => {
  const flag = flags.find((f) => f.startsWith(`--${name}=`));
  return flag ? Number(flag.slice(name.length + 3)) : fallback;
};
const skipUs = option("skip", 0) * 1e6;
const perRequest = option("per-request", 0);
const top = option("top", 0);

const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

const SYSCALLS = new Set(["writev", "writeString", "writeBuffer", "writeUtf8String", "read", "fstat"]);
const under = (id, pattern) => {
  for (let at = id; at !== undefined; at = parent.get(at)) if (pattern.test(nodes.get(at).callFrame.url)) return true;
  return false;
};
function layerOf(id) {
  const { url, functionName } = nodes.get(id).callFrame;
  if (functionName === "(idle)") return null;
  if (functionName === "(garbage collector)") return "garbage collection";
  if (url.includes("@electric-sql/pglite") || url.startsWith("wasm://") || under(id, /@electric-sql\/pglite/))
    return "database engine (PGlite)";
  if (SYSCALLS.has(functionName)) return "system calls (socket writes)";
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(url)) return "PostgreSQL driver (pg)";
  if (url.includes("drizzle-orm")) return "drizzle";
  if (/node_modules\/(hono|@hono)\/|undici|webstreams/.test(url)) return "Hono, its Node adapter, web Request/Headers";
  if (/pino|sonic-boom|quick-format/.test(url)) return "access log (pino)";
  if (url.includes("prom-client") || url.includes("lib/ops/metrics")) return "metrics (prom-client)";
  if (url.includes("node_modules/zod")) return "validation (zod)";
  if (url.includes("async_hooks")) return "AsyncLocalStorage (audit actor, clock)";
  if (url.includes("/lib/api/middleware/")) return "our middleware";
  if (url.includes("/lib/")) return "our routes, domain, serializers";
  if (url.startsWith("node:") && under(id, /node_modules\/pg/)) return "PostgreSQL driver (pg)";
  if (url.startsWith("node:") || !url) return "Node (http, streams, events, promises)";
  return `other: ${url.replace(/.*node_modules\//, "").split("/")[0]}`;
}

const layers = new Map();
const functions = new Map();
let busy = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < skipUs) return;
  const layer = layerOf(id);
  if (!layer) return;
  busy += dt;
  layers.set(layer, (layers.get(layer) ?? 0) + dt);
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const where = url.includes("node_modules/")
    ? url.replace(/.*node_modules\//, "")
    : url.replace(/.*\/(lib|bench)\//, "$1/");
  const name = `${functionName || "(anonymous)"} ${where}:${lineNumber}`;
  functions.set(name, (functions.get(name) ?? 0) + dt);
});
const line = (name, us) => {
  const share = `${((100 * us) / busy).toFixed(1)}%`.padStart(6);
  const micro = perRequest ? `${String(Math.round((perRequest * us) / busy)).padStart(6)} µs  ` : "  ";
  return `${share}${micro}${name}`;
};
console.log(`busy ${(busy / 1000).toFixed(0)} ms (idle left out)`);
for (const [name, us] of [...layers].sort((a, b) => b[1] - a[1])) console.log(line(name, us));
if (top) {
  console.log(`\ntop ${top} functions by self time`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
}
