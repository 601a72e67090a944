import { type ChildProcess, fork, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import autocannon from "autocannon";
import pg from "pg";

import { openDatabase } from "../lib/db/client";
import { createApiKey } from "../lib/domain/accounts/api-keys";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { env } from "../lib/env";
import { benchEmbed, type EmbedBench, printEmbed } from "./embed";
import { collectFigures, writeFigures } from "./figures";
import { benchDataDir, serverArgs } from "./harness";
import { benchHome, type HomeBench, printHome } from "./home";
import { benchLedger, type LedgerBench, printLedger } from "./ledger";
import { benchOverview, type OverviewBench, printOverview } from "./overview";
import { benchPayments, type PaymentsBench, printPayments } from "./payments";
import { benchPayouts, type PayoutsBench, printPayouts } from "./payouts";
import { benchRevenue, printRevenue, type RevenueBench } from "./revenue";
import { benchRisk, printRisk, type RiskBench } from "./risk";
import { benchRefundsAndSettlement, printSettlement, type SettlementBench } from "./settlement";
import { scaled, SHORT } from "./short";
import { benchStreams, printStreams, type StreamsBench } from "./streams";
import { benchSubscriptions, printSubscriptions, type SubscriptionsBench } from "./subscriptions";
import { benchJobs, benchUnderwriting, type UnderwritingBench } from "./underwriting";
import { benchUploads, printUploads, type UploadsBench } from "./uploads";
import { benchWebhookDrain, benchWebhooks, type DrainBench, type WebhookBench } from "./webhooks";
import { benchWizard } from "./wizard";

// `npm run bench`: GET /v1/account with Basic auth, the real server (server.ts) against a bare
// node:http server doing the same SQL through the same driver, on PGlite and on PostgreSQL.
// Loopback only, bounded: each run lasts DURATION seconds.
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const tsx = path.resolve("node_modules/.bin/tsx");

type Result = { name: string; rps: number; p50: number; p99: number; non2xx: number; cpuUs: number | null };

/**
 * CPU time (user + system, microseconds) used so far by a process and its descendants (a tsx
 * wrapper and the node process it starts), from /proc: Linux only (null elsewhere). Unlike
 * requests per second, CPU per request barely depends on what else the machine is doing.
 */
function cpuMicros(rootPid: number | undefined): number | null {
  if (!rootPid || !fs.existsSync("/proc/self/stat")) return null;
  const stats = fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        // After the command's closing parenthesis: state, ppid, ... utime (14th field), stime (15th).
        const fields = fs.readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ");
        return { pid: Number(d), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
      } catch {
        return null;
      }
    })
    .filter((x) => x !== null);
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of stats)
      if (tree.has(p.ppid) && !tree.has(p.pid)) {
        tree.add(p.pid);
        grew = true;
      }
  }
  const ticks = stats.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0);
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

/** POST /v1/merchants as the runs send it: a phone alone (each request creates a merchant). */
const CREATE = { method: "POST" as const, body: JSON.stringify({ phone: "+14155550123" }) };

async function run(
  name: string,
  port: number,
  auth: string,
  path = "/v1/account",
  pid?: number,
  post?: typeof CREATE,
): Promise<Result> {
  const request = {
    url: `http://127.0.0.1:${port}${path}`,
    headers: { authorization: auth, ...(post ? { "content-type": "application/json" } : {}) },
    connections: CONNECTIONS,
    ...(post ?? {}),
  };
  // Warm-up: JIT, connection pools, caches (none in the short mode, whose figures are not compared).
  if (!SHORT) await autocannon({ ...request, duration: 3 });
  const before = cpuMicros(pid);
  const r = await autocannon({ ...request, duration: DURATION });
  const after = cpuMicros(pid);
  const cpuUs = before !== null && after !== null && r.requests.total > 0 ? (after - before) / r.requests.total : null;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, cpuUs };
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${url}`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

async function benchDatabase(kind: "pglite" | "postgres", databaseUrl?: string): Promise<Result[]> {
  const dataDir = await benchDataDir("onb-bench-", databaseUrl);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    SEED_DEMO: "0",
    APP_ENV: "sandbox",
    RATE_LIMIT_PER_SECOND: "100000000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  if (!databaseUrl) delete (env as Record<string, string | undefined>).DATABASE_URL;
  const setup = await openDatabase({ databaseUrl, dataDir });
  const isv = await createIsv(setup.db, {
    name: "Bench ISV",
    email: `bench-${Date.now()}@example.test`,
    password: "bench-password-1",
    live: false,
  });
  // A merchant with a whole application (encrypted fields and all) for GET /v1/merchants/{id}.
  const { row: merchant } = await createMerchant(setup.db, await getAccount(setup.db, isv.account_id), {
    phone: "+14155550123",
    merchant: JSON.parse(fs.readFileSync("lib/schemas/examples/merchant-application.json", "utf8")),
  } as never);
  // A restricted key that may read merchants: the permission check runs in full for it (a standard
  // key passes it at once), measured against the standard key in pairs (pairedOpsRatios).
  const restricted = await createApiKey(
    setup.db,
    isv.account_id,
    { name: "Bench restricted", permissions: { merchants: "read" } },
    { live: false },
  );
  await setup.close();
  const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
  const restrictedAuth = `Basic ${Buffer.from(`${isv.account_sid}:${restricted.secret}`).toString("base64")}`;

  // instrumentation "off": the same server without metrics or audit entries (the baseline the
  // operations' cost is measured against, docs/reference.md section 17).
  const runApi = async (instrumentation: "on" | "off" = "on") => {
    const apiPort = 3401;
    // BENCH_PROFILE_DIR=dir: each API server writes a V8 CPU profile there when it stops (docs/decisions.md,
    // "The API's own cost", says how to read one).
    const api = spawn(process.execPath, await serverArgs(), {
      env: {
        ...env,
        NODE_ENV: "production",
        PORT: String(apiPort),
        HOST: "127.0.0.1",
        INSTRUMENTATION: instrumentation,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const label = instrumentation === "on" ? "API" : "API no metrics/audit";
    try {
      await waitFor(`http://127.0.0.1:${apiPort}/v1/openapi.json`, api);
      return [
        await run(
          `${instrumentation === "on" ? "API (server.ts)" : label} on ${kind}`,
          apiPort,
          auth,
          "/v1/account",
          api.pid,
        ),
        await run(`${label} GET merchant on ${kind}`, apiPort, auth, `/v1/merchants/${merchant.id}`, api.pid),
        await run(`${label} POST merchant on ${kind}`, apiPort, auth, "/v1/merchants", api.pid, CREATE),
      ];
    } finally {
      await stop(api);
    }
  };
  const runBare = async () => {
    const barePort = 3402;
    const bare = fork(path.resolve("bench/bare-server.ts"), {
      env: { ...env, PORT: String(barePort) },
      execPath: tsx,
      execArgv: [],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    try {
      await new Promise((resolve, reject) => {
        bare.once("message", resolve);
        bare.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
      });
      return [
        await run(`bare node:http on ${kind}`, barePort, auth, "/v1/account", bare.pid),
        await run(`bare GET merchant on ${kind}`, barePort, auth, `/v1/merchants/${merchant.id}`, bare.pid),
        await run(`bare POST merchant on ${kind}`, barePort, auth, "/v1/merchants", bare.pid, CREATE),
      ];
    } finally {
      await stop(bare);
    }
  };
  // Interleaved rounds, best of each: the machine (2 cores shared by the load generator, the
  // server and PostgreSQL) is noisy, and order effects (caches, autovacuum) should not decide.
  const rounds = Number(process.env.BENCH_ROUNDS ?? scaled(2, 1));
  const apiRuns: Result[][] = [];
  const bareRuns: Result[][] = [];
  const offRuns: Result[][] = [];
  for (let i = 0; i < rounds; i++) {
    // With and without metrics and audit in turn first, so that neither always runs on a colder or
    // larger database (the POST runs add merchants as they go).
    // (The short mode runs the server without them only in the paired comparison below: one server
    // start fewer, and the short run's ratios are not compared.)
    if (i % 2 === 1 && !SHORT) offRuns.push(await runApi("off"));
    apiRuns.push(await runApi());
    bareRuns.push(await runBare());
    if (i % 2 === 0 && !SHORT) offRuns.push(await runApi("off"));
  }
  const best = (runs: Result[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  if (process.env.BENCH_PAIRED !== "0")
    pairedOps.push(...(await pairedOpsRatios(kind, env, dataDir, { auth, restrictedAuth }, merchant.id)));
  fs.rmSync(dataDir, { recursive: true, force: true });
  // [API account, bare account, API merchant, bare merchant, API create, bare create]: the ratios are
  // taken pairwise; then the three runs without metrics and audit (opsRatiosOf).
  return [
    ...[0, 1, 2].flatMap((i) => [best(apiRuns.map((r) => r[i]!)), best(bareRuns.map((r) => r[i]!))]),
    ...(offRuns.length ? [0, 1, 2].map((i) => best(offRuns.map((r) => r[i]!))) : []),
  ];
}

/** The paired comparison of metrics and audit on against off (see pairedOpsRatios), per database and request. */
type PairedRatio = { database: string; median: number; min: number; max: number; pairs: number };
const pairedOps: PairedRatio[] = [];
/** The permission check's price: a restricted key's GET merchant over a standard key's, paired (goal >= 0.98). */
const pairedPermission: PairedRatio[] = [];

/**
 * Metrics and audit on against off, paired (docs/reference.md section 17: goal >= 0.95): the two
 * servers run side by side (on PGlite each on its own copy of the database), and each request is
 * measured in short alternating pairs (on then off, off then on, ...), each pair giving a ratio;
 * the median of the pairs is reported with their range. Drift of the machine (another process, a
 * cache, autovacuum) moves both sides of a pair alike, where separate best-of runs minutes apart
 * did not (their ratios swung from 0.63 to 1.26 between runs).
 */
async function pairedOpsRatios(
  kind: "pglite" | "postgres",
  env: NodeJS.ProcessEnv,
  dataDir: string,
  { auth, restrictedAuth }: { auth: string; restrictedAuth: string },
  merchantId: string,
): Promise<PairedRatio[]> {
  const pairs = Number(process.env.BENCH_PAIRS ?? scaled(5, 1));
  const seconds = Number(process.env.BENCH_PAIR_SECONDS ?? scaled(3, 1));
  const offDir = fs.mkdtempSync(path.join(os.tmpdir(), "onb-bench-off-"));
  // On PGlite its own copy of the database; on PostgreSQL the same database: either way the same
  // generated keys (they live in DATA_DIR), so both servers read what the other wrote.
  fs.cpSync(dataDir, offDir, { recursive: true, filter: (src) => !src.endsWith(".sock") && !src.endsWith(".lock") });
  const start = async (instrumentation: "on" | "off", port: number, dir: string) => {
    const child = spawn(process.execPath, await serverArgs(), {
      env: {
        ...env,
        DATA_DIR: dir,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        INSTRUMENTATION: instrumentation,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(`http://127.0.0.1:${port}/v1/openapi.json`, child);
    return child;
  };
  const on = await start("on", 3411, dataDir);
  const off = await start("off", 3412, offDir);
  const out: PairedRatio[] = [];
  try {
    const requests = [
      { label: "GET account", path: "/v1/account" },
      { label: "GET merchant", path: `/v1/merchants/${merchantId}` },
      { label: "POST merchant", path: "/v1/merchants", post: CREATE },
    ];
    for (const r of requests) {
      const load = (port: number, duration: number) =>
        autocannon({
          url: `http://127.0.0.1:${port}${r.path}`,
          headers: { authorization: auth, ...(r.post ? { "content-type": "application/json" } : {}) },
          connections: CONNECTIONS,
          duration,
          ...(r.post ?? {}),
        });
      if (!SHORT) {
        await load(3411, 2);
        await load(3412, 2);
      }
      const ratios: number[] = [];
      for (let i = 0; i < pairs; i++) {
        // Alternating order: neither side always runs first (after the other's load) in its pair.
        const first = i % 2 === 0 ? 3411 : 3412;
        const a = await load(first, seconds);
        const b = await load(first === 3411 ? 3412 : 3411, seconds);
        const [withOps, without] = first === 3411 ? [a, b] : [b, a];
        ratios.push(withOps.requests.average / without.requests.average);
      }
      ratios.sort((x, y) => x - y);
      out.push({
        database: `${kind} ${r.label}`,
        median: ratios[Math.floor(ratios.length / 2)]!,
        min: ratios[0]!,
        max: ratios[ratios.length - 1]!,
        pairs,
      });
    }
    // The permission check (section 23), on the server with metrics and audit: the same request with
    // a restricted key (the check runs in full) and a standard key (it passes at once), in pairs.
    const merchantWith = (authorization: string, duration: number) =>
      autocannon({
        url: `http://127.0.0.1:3411/v1/merchants/${merchantId}`,
        headers: { authorization },
        connections: CONNECTIONS,
        duration,
      });
    const ratios: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const [first, second] = i % 2 === 0 ? [restrictedAuth, auth] : [auth, restrictedAuth];
      const a = await merchantWith(first, seconds);
      const b = await merchantWith(second, seconds);
      const [withCheck, standard] = first === restrictedAuth ? [a, b] : [b, a];
      ratios.push(withCheck.requests.average / standard.requests.average);
    }
    ratios.sort((x, y) => x - y);
    pairedPermission.push({
      database: `${kind} GET merchant`,
      median: ratios[Math.floor(ratios.length / 2)]!,
      min: ratios[0]!,
      max: ratios[ratios.length - 1]!,
      pairs,
    });
  } finally {
    await stop(on);
    await stop(off);
    fs.rmSync(offDir, { recursive: true, force: true });
  }
  return out;
}

async function postgresUrl(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: admin });
  try {
    await client.connect();
  } catch {
    return null;
  }
  const name = `bench_${Date.now()}`;
  await client.query(`create database ${name}`);
  await client.end();
  const url = admin.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

function table(results: Result[]) {
  const lines = [
    `${"run".padEnd(32)} ${"req/s".padStart(9)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"non-2xx".padStart(8)} ${"server CPU µs/req".padStart(18)}`,
  ];
  for (const r of results)
    lines.push(
      `${r.name.padEnd(32)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.non2xx).padStart(8)} ${(r.cpuUs === null ? "n/a" : r.cpuUs.toFixed(0)).padStart(18)}`,
    );
  return lines.join("\n");
}

function ratiosOf(pglite: Result[], postgres: Result[]) {
  return [
    ...(pglite.length ? [{ database: "pglite", value: pglite[0]!.rps / pglite[1]!.rps }] : []),
    ...(postgres.length ? [{ database: "postgres", value: postgres[0]!.rps / postgres[1]!.rps }] : []),
    ...(pglite.length ? [{ database: "pglite GET merchant", value: pglite[2]!.rps / pglite[3]!.rps }] : []),
    ...(postgres.length ? [{ database: "postgres GET merchant", value: postgres[2]!.rps / postgres[3]!.rps }] : []),
    ...(pglite.length ? [{ database: "pglite POST merchant", value: pglite[4]!.rps / pglite[5]!.rps }] : []),
    ...(postgres.length ? [{ database: "postgres POST merchant", value: postgres[4]!.rps / postgres[5]!.rps }] : []),
  ];
}

/** Throughput with metrics and the audit log over without them, in the same run (goal >= 0.95). */
function opsRatiosOf(pglite: Result[], postgres: Result[]) {
  const of = (database: string, runs: Result[]) =>
    runs.length < 9
      ? []
      : [
          { database: `${database} GET account`, value: runs[0]!.rps / runs[6]!.rps },
          { database: `${database} GET merchant`, value: runs[2]!.rps / runs[7]!.rps },
          { database: `${database} POST merchant`, value: runs[4]!.rps / runs[8]!.rps },
        ];
  return [...of("pglite", pglite), ...of("postgres", postgres)];
}

/** CPU per request without metrics and audit over with them (1.00: they cost nothing measurable). */
function opsCpuRatiosOf(pglite: Result[], postgres: Result[]) {
  const pair = (database: string, on?: Result, off?: Result) =>
    on?.cpuUs && off?.cpuUs ? [{ database, value: off.cpuUs / on.cpuUs }] : [];
  const of = (database: string, runs: Result[]) => [
    ...pair(`${database} GET account`, runs[0], runs[6]),
    ...pair(`${database} GET merchant`, runs[2], runs[7]),
    ...pair(`${database} POST merchant`, runs[4], runs[8]),
  ];
  return [...of("pglite", pglite), ...of("postgres", postgres)];
}

/** A ratio as printed: a run in which no request completed (a loaded machine's short run) has none. */
const ratioText = (value: number) =>
  Number.isFinite(value) && value > 0 ? value.toFixed(2) : "n/a (a run completed no request)";

function printRatios(pglite: Result[], postgres: Result[]) {
  console.log("");
  for (const r of ratiosOf(pglite, postgres))
    console.log(`ratio API / bare, ${r.database.padEnd(22)} ${ratioText(r.value)}`);
  for (const r of opsRatiosOf(pglite, postgres))
    console.log(`ratio with metrics+audit / without (best of rounds), ${r.database.padEnd(22)} ${ratioText(r.value)}`);
  for (const r of pairedOps)
    console.log(
      `ratio with metrics+audit / without, paired, ${r.database.padEnd(22)} ${r.median.toFixed(2)} (median of ${r.pairs} pairs, ${r.min.toFixed(2)}-${r.max.toFixed(2)}; goal >= 0.95)`,
    );
  for (const r of pairedPermission)
    console.log(
      `ratio restricted key / standard key (the permission check), paired, ${r.database.padEnd(22)} ${r.median.toFixed(2)} (median of ${r.pairs} pairs, ${r.min.toFixed(2)}-${r.max.toFixed(2)}; goal >= 0.98)`,
    );
  // The same in CPU per request (less moved by what else the machine does): without's over with's.
  for (const r of opsCpuRatiosOf(pglite, postgres))
    console.log(`CPU ratio without / with metrics+audit, ${r.database.padEnd(22)} ${ratioText(r.value)}`);
  // The same comparison in CPU: bare's CPU per request over the API's (1.00: the API costs nothing more).
  for (const r of cpuRatiosOf(pglite, postgres))
    console.log(`CPU ratio bare / API, ${r.database.padEnd(18)} ${ratioText(r.value)}`);
}

function cpuRatiosOf(pglite: Result[], postgres: Result[]) {
  const pair = (database: string, api?: Result, bare?: Result) =>
    api?.cpuUs && bare?.cpuUs ? [{ database, value: bare.cpuUs / api.cpuUs }] : [];
  return [
    ...pair("pglite", pglite[0], pglite[1]),
    ...pair("postgres", postgres[0], postgres[1]),
    ...pair("pglite GET merchant", pglite[2], pglite[3]),
    ...pair("postgres GET merchant", postgres[2], postgres[3]),
    ...pair("pglite POST merchant", pglite[4], pglite[5]),
    ...pair("postgres POST merchant", postgres[4], postgres[5]),
  ];
}

function printWebhooks(webhookResults: WebhookBench[], drains: DrainBench[]) {
  console.log(
    "\nWebhooks: events created through POST /v1/merchants, delivered by the server's worker (or a worker process) to a loopback receiver",
  );
  console.log(
    `${"database".padEnd(26)} ${"events".padStart(7)} ${"creates/s".padStart(10)} ${"deliveries/s".padStart(13)} ${"event→delivery p50 ms".padStart(22)} ${"p99 ms".padStart(8)}`,
  );
  for (const w of webhookResults)
    console.log(
      `${w.kind.padEnd(26)} ${String(w.events).padStart(7)} ${w.createsPerSecond.toFixed(0).padStart(10)} ${w.deliveriesPerSecond.toFixed(0).padStart(13)} ${String(w.p50).padStart(22)} ${String(w.p99).padStart(8)}`,
    );
  console.log("Draining a backlog of events written with no worker running (the delivery path alone):");
  for (const d of drains)
    console.log(
      `${d.kind.padEnd(26)} ${String(d.events).padStart(7)} ${d.deliveriesPerSecond.toFixed(0).padStart(10)} deliveries/s`,
    );
}

/** A section's work, and in the short mode how long it took (what CI's time goes to). */
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    if (SHORT) console.log(`(${label}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

async function main() {
  const build = spawn("node", ["scripts/ensure-build.mjs"], { stdio: "inherit" });
  await new Promise((r) => build.once("exit", r));
  if (SHORT)
    console.log(
      "SHORT RUN (BENCH_SHORT=1): every section with a fraction of its work and about a second per timed run; these figures are not comparable with a full run's\n",
    );
  console.log(`GET /v1/account, Basic auth, ${CONNECTIONS} connections, ${DURATION}s per run, loopback\n`);
  const results: Result[] = [];
  const only = process.env.BENCH_ONLY;
  const done = (written: string | null) => {
    if (written) console.log(`\nFigures written as JSON to ${written}`);
  };
  if (only === "wizard") return done(writeFigures(collectFigures({ wizard: await printWizard() })));
  if (only === "payments") {
    const pgdb = await postgresUrl();
    const out = [await benchPayments("pglite", undefined, { pages: true })];
    const stl = [await benchRefundsAndSettlement("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchPayments("postgres", pgdb.url, { pages: false }));
        stl.push(await benchRefundsAndSettlement("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printPayments(out);
    printSettlement(stl);
    return done(writeFigures(collectFigures({ payments: out, settlement: stl })));
  }
  if (only === "risk") {
    const pgdb = await postgresUrl();
    const out = [await benchRisk("pglite", undefined, scaled(2_000, 200))];
    if (pgdb) {
      try {
        out.push(await benchRisk("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printRisk(out);
    return done(writeFigures(collectFigures({ risk: out })));
  }
  if (only === "subscriptions") {
    const pgdb = await postgresUrl();
    const out = [await benchSubscriptions("pglite", undefined, scaled(1_000, 100))];
    if (pgdb) {
      try {
        out.push(await benchSubscriptions("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printSubscriptions(out);
    return done(writeFigures(collectFigures({ subscriptions: out })));
  }
  if (only === "payouts") {
    const pgdb = await postgresUrl();
    const out = [await benchPayouts("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchPayouts("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printPayouts(out);
    return done(writeFigures(collectFigures({ payouts: out })));
  }
  if (only === "api") {
    const pglite = await benchDatabase("pglite");
    const pgdb = await postgresUrl();
    let postgres: Result[] = [];
    if (pgdb) {
      try {
        postgres = await benchDatabase("postgres", pgdb.url);
      } finally {
        await pgdb.drop();
      }
    }
    console.log(table([...pglite, ...postgres]));
    printRatios(pglite, postgres);
    return done(
      writeFigures(
        collectFigures({
          api: [...pglite, ...postgres],
          ratios: ratiosOf(pglite, postgres),
          opsRatios: opsRatiosOf(pglite, postgres),
          pairedOps,
          pairedPermission,
        }),
      ),
    );
  }
  if (only === "verification") {
    const pgdb = await postgresUrl();
    const underwriting = [await benchUnderwriting("pglite", undefined)];
    const uploads = [await benchUploads("pglite", undefined)];
    if (pgdb) {
      try {
        underwriting.push(await benchUnderwriting("postgres", pgdb.url));
        uploads.push(await benchUploads("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printUnderwriting(underwriting);
    printUploads(uploads);
    return done(writeFigures(collectFigures({ underwriting, uploads })));
  }
  if (only === "home") {
    const pgdb = await postgresUrl();
    const out = [await benchHome("pglite", undefined, { scripts: true })];
    if (pgdb) {
      try {
        out.push(await benchHome("postgres", pgdb.url, { scripts: false }));
      } finally {
        await pgdb.drop();
      }
    }
    printHome(out);
    return done(writeFigures(collectFigures({ home: out })));
  }
  if (only === "embed") {
    const pgdb = await postgresUrl();
    const out = [await benchEmbed("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchEmbed("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printEmbed(out);
    return done(writeFigures(collectFigures({ embed: out })));
  }
  if (only === "streams") {
    const pgdb = await postgresUrl();
    const out = [await benchStreams("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchStreams("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printStreams(out);
    return done(writeFigures(collectFigures({ streams: out })));
  }
  if (only === "revenue") {
    const pgdb = await postgresUrl();
    const out = [await benchRevenue("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchRevenue("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printRevenue(out);
    return done(writeFigures(collectFigures({ revenue: out })));
  }
  if (only === "overview") {
    const pgdb = await postgresUrl();
    const out = [await benchOverview("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchOverview("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printOverview(out);
    return done(writeFigures(collectFigures({ overview: out })));
  }
  if (only === "ledger") {
    const pgdb = await postgresUrl();
    const out = [await benchLedger("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchLedger("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printLedger(out);
    return done(writeFigures(collectFigures({ ledger: out })));
  }
  if (only === "webhooks") {
    const pgdb = await postgresUrl();
    const out = [await benchWebhooks("pglite", undefined)];
    const drains = [await benchWebhookDrain("pglite", undefined)];
    if (pgdb) {
      try {
        out.push(await benchWebhooks("postgres", pgdb.url));
        out.push(await benchWebhooks("postgres", pgdb.url, scaled(400, 40), { separateWorker: true }));
        drains.push(await benchWebhookDrain("postgres", pgdb.url));
      } finally {
        await pgdb.drop();
      }
    }
    printWebhooks(out, drains);
    return done(writeFigures(collectFigures({ webhooks: out, drains })));
  }
  const pglite = only === "postgres" ? [] : await timed("benchDatabase pglite", () => benchDatabase("pglite"));
  results.push(...pglite);
  const webhookResults: WebhookBench[] = [];
  const drains: DrainBench[] = [];
  const underwriting: UnderwritingBench[] = [];
  const uploadResults: UploadsBench[] = [];
  const jobRates: { kind: string; jobs: number; perSecond: number }[] = [];
  const paymentResults: PaymentsBench[] = [];
  const settlementResults: SettlementBench[] = [];
  const streamResults: StreamsBench[] = [];
  const homeResults: HomeBench[] = [];
  const payoutResults: PayoutsBench[] = [];
  const embedResults: EmbedBench[] = [];
  const ledgerResults: LedgerBench[] = [];
  const revenueResults: RevenueBench[] = [];
  const overviewResults: OverviewBench[] = [];
  const riskResults: RiskBench[] = [];
  const subscriptionResults: SubscriptionsBench[] = [];
  if (only !== "postgres") {
    paymentResults.push(await timed("benchPayments pglite", () => benchPayments("pglite", undefined, { pages: true })));
    settlementResults.push(
      await timed("benchRefundsAndSettlement pglite", () => benchRefundsAndSettlement("pglite", undefined)),
    );
    webhookResults.push(await timed("benchWebhooks pglite", () => benchWebhooks("pglite", undefined)));
    drains.push(await timed("benchWebhookDrain pglite", () => benchWebhookDrain("pglite", undefined)));
    underwriting.push(await timed("benchUnderwriting pglite", () => benchUnderwriting("pglite", undefined)));
    uploadResults.push(await timed("benchUploads pglite", () => benchUploads("pglite", undefined)));
    jobRates.push(await timed("benchJobs pglite", () => benchJobs("pglite", undefined)));
    streamResults.push(await timed("benchStreams pglite", () => benchStreams("pglite", undefined)));
    homeResults.push(await timed("benchHome pglite", () => benchHome("pglite", undefined, { scripts: true })));
    payoutResults.push(await timed("benchPayouts pglite", () => benchPayouts("pglite", undefined)));
    embedResults.push(await timed("benchEmbed pglite", () => benchEmbed("pglite", undefined)));
    ledgerResults.push(await timed("benchLedger pglite", () => benchLedger("pglite", undefined)));
    revenueResults.push(await timed("benchRevenue pglite", () => benchRevenue("pglite", undefined)));
    overviewResults.push(await timed("benchOverview pglite", () => benchOverview("pglite", undefined)));
    riskResults.push(await timed("benchRisk pglite", () => benchRisk("pglite", undefined, scaled(2_000, 200))));
    subscriptionResults.push(
      await timed("benchSubscriptions pglite", () => benchSubscriptions("pglite", undefined, scaled(1_000, 100))),
    );
  }
  const pgdb = only === "pglite" ? null : await postgresUrl();
  let postgres: Result[] = [];
  if (pgdb) {
    try {
      postgres = await timed("benchDatabase postgres", () => benchDatabase("postgres", pgdb.url));
      results.push(...postgres);
      webhookResults.push(await timed("benchWebhooks postgres", () => benchWebhooks("postgres", pgdb.url)));
      webhookResults.push(
        await timed("benchWebhooks postgres", () =>
          benchWebhooks("postgres", pgdb.url, scaled(400, 40), { separateWorker: true }),
        ),
      );
      drains.push(await timed("benchWebhookDrain postgres", () => benchWebhookDrain("postgres", pgdb.url)));
      paymentResults.push(
        await timed("benchPayments postgres", () => benchPayments("postgres", pgdb.url, { pages: false })),
      );
      settlementResults.push(
        await timed("benchRefundsAndSettlement postgres", () => benchRefundsAndSettlement("postgres", pgdb.url)),
      );
      underwriting.push(await timed("benchUnderwriting postgres", () => benchUnderwriting("postgres", pgdb.url)));
      uploadResults.push(await timed("benchUploads postgres", () => benchUploads("postgres", pgdb.url)));
      jobRates.push(await timed("benchJobs postgres", () => benchJobs("postgres", pgdb.url)));
      streamResults.push(await timed("benchStreams postgres", () => benchStreams("postgres", pgdb.url)));
      homeResults.push(await timed("benchHome postgres", () => benchHome("postgres", pgdb.url, { scripts: false })));
      payoutResults.push(await timed("benchPayouts postgres", () => benchPayouts("postgres", pgdb.url)));
      embedResults.push(await timed("benchEmbed postgres", () => benchEmbed("postgres", pgdb.url)));
      ledgerResults.push(await timed("benchLedger postgres", () => benchLedger("postgres", pgdb.url)));
      revenueResults.push(await timed("benchRevenue postgres", () => benchRevenue("postgres", pgdb.url)));
      overviewResults.push(await timed("benchOverview postgres", () => benchOverview("postgres", pgdb.url)));
      riskResults.push(await timed("benchRisk postgres", () => benchRisk("postgres", pgdb.url)));
      subscriptionResults.push(
        await timed("benchSubscriptions postgres", () => benchSubscriptions("postgres", pgdb.url)),
      );
    } finally {
      await pgdb.drop();
    }
  } else
    console.log(
      only === "pglite"
        ? "(PostgreSQL: not run, BENCH_ONLY=pglite)"
        : "(PostgreSQL not reachable on 127.0.0.1:5432: skipped)",
    );
  console.log(table(results));
  printRatios(pglite, postgres);
  printWebhooks(webhookResults, drains);

  printUnderwriting(underwriting);
  printUploads(uploadResults);
  printPayments(paymentResults);
  printSettlement(settlementResults);
  console.log("\nJob runner: no-op jobs drained by one worker (concurrency 8)");
  for (const j of jobRates)
    console.log(`${j.kind.padEnd(12)} ${String(j.jobs).padStart(5)} jobs ${j.perSecond.toFixed(0).padStart(8)} jobs/s`);
  printStreams(streamResults);
  printHome(homeResults);
  printPayouts(payoutResults);
  printEmbed(embedResults);
  printLedger(ledgerResults);
  printRevenue(revenueResults);
  printOverview(overviewResults);
  printRisk(riskResults);
  printSubscriptions(subscriptionResults);
  const wizard = await timed("benchWizard", printWizard);
  const ratios = ratiosOf(pglite, postgres);
  done(
    writeFigures(
      collectFigures({
        api: results,
        ratios,
        opsRatios: opsRatiosOf(pglite, postgres),
        pairedOps,
        pairedPermission,
        webhooks: webhookResults,
        drains,
        embed: embedResults,
        underwriting,
        uploads: uploadResults,
        payments: paymentResults,
        settlement: settlementResults,
        jobs: jobRates,
        wizard,
        streams: streamResults,
        home: homeResults,
        payouts: payoutResults,
        ledger: ledgerResults,
        revenue: revenueResults,
        overview: overviewResults,
        risk: riskResults,
        subscriptions: subscriptionResults,
      }),
    ),
  );
}

function printUnderwriting(underwriting: UnderwritingBench[]) {
  console.log(
    `\nUnderwriting: submit (session API, 10 at a time) to decision (merchant.approved), ${underwriting[0]?.applications ?? 0} applications, each with 5 verification checks (sandbox provider, ${env.VERIFICATION_LATENCY_MS} ms each)`,
  );
  console.log(
    `${"database".padEnd(12)} ${"apps".padStart(5)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`,
  );
  for (const u of underwriting)
    console.log(
      `${u.kind.padEnd(12)} ${String(u.applications).padStart(5)} ${String(u.p50).padStart(8)} ${String(u.p99).padStart(8)} ${String(u.max).padStart(8)}`,
    );
}

async function printWizard() {
  const lighthouse = process.env.BENCH_LIGHTHOUSE !== "0";
  const wizard = await benchWizard({ lighthouse });
  console.log(
    `\nWizard steps: JavaScript the page loads (gzip), Lighthouse mobile scores${lighthouse ? "" : " (skipped: BENCH_LIGHTHOUSE=0)"}; goals: <= 150 KB, performance >= 95, accessibility 100`,
  );
  console.log(
    `${"step".padEnd(12)} ${"JS gzip KB".padStart(11)} ${"scripts".padStart(8)} ${"performance".padStart(12)} ${"accessibility".padStart(14)}`,
  );
  for (const f of wizard)
    console.log(
      `${f.step.padEnd(12)} ${(f.jsGzipBytes / 1024).toFixed(1).padStart(11)} ${String(f.scripts).padStart(8)} ${String(f.performance ?? "-").padStart(12)} ${String(f.accessibility ?? "-").padStart(14)}`,
    );
  return wizard;
}

await main();
