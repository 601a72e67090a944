import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";

import { type BundleEntry, bundlePath } from "../../scripts/cli-bundle";
import { dataDir as newDataDir } from "./scratch";
import { until } from "./until";

export { until };

// The real server as its own process in a process group of its own, so that a test can kill all of
// it and prove afterwards that nothing of it survives.

/**
 * node's arguments to start one of the project's programs: the run's compiled one (tests/global-setup.ts
 * compiles them, scripts/cli-bundle.ts), or the source through tsx when a file runs without it.
 */
export const program = (entry: BundleEntry) => {
  const dir = process.env.TEST_BUNDLES_DIR;
  return dir ? [bundlePath("test", entry, dir)] : ["--import", "tsx", entry];
};

/** Whether any process of the group still exists. */
export function groupAlive(pid: number) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ports something on this machine listens on now (Linux: /proc/net/tcp and tcp6, state 0A). */
function listeningPorts(): Set<number> {
  const ports = new Set<number>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A") ports.add(parseInt(cols[1]!.split(":")[1]!, 16));
    }
  }
  return ports;
}

// The ports fetch() refuses to reach ("bad port", the WHATWG Fetch standard's list) in the ranges
// the tests draw from: a worker's metrics on 4045 once failed a scrape.
const fetchBlockedPorts = new Set([3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697]);

/**
 * A random port of the range that nothing listens on now (another service of the machine, such as
 * Erlang's epmd on 4369, once made a start fail with EADDRINUSE) and that fetch() may reach.
 */
export function freePortIn(from: number, count: number) {
  const busy = listeningPorts();
  const free = Array.from({ length: count }, (_, i) => from + i).filter(
    (p) => !busy.has(p) && !fetchBlockedPorts.has(p),
  );
  if (free.length === 0) throw new Error(`no free port in ${from}-${from + count - 1}`);
  return free[Math.floor(Math.random() * free.length)]!;
}

/** A server on its own port and data directory (or the PostgreSQL database of DATABASE_URL). */
export function serverProcesses(options: {
  name: string;
  portFrom: number;
  ports: number;
  env?: Record<string, string>;
}) {
  const dataDir = newDataDir(`onb-${options.name}-`, !process.env.DATABASE_URL && !options.env?.DATABASE_URL);
  const port = freePortIn(options.portFrom, options.ports);
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: base,
    SERVE_PAGES: "0",
    LOG_LEVEL: "warn",
    SEED_DEMO: "0",
    NODE_ENV: "production" as const,
    ...options.env,
  };
  const started: ChildProcess[] = [];
  let output = "";

  return {
    dataDir,
    port,
    base,
    env,
    started,
    /** Everything the servers wrote to stdout and stderr. */
    output: () => output,
    async start() {
      const child = spawn(process.execPath, program("server.ts"), {
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      started.push(child);
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output.slice(-2000)}`);
          return (await fetch(`${base}/v1/openapi.json`)).ok;
        },
        Boolean,
        // A loaded 2-core machine starting the server: well within, yet never forever.
        90_000,
        "the server to answer",
      ).catch((error) => {
        if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output.slice(-2000)}`);
        throw error;
      });
      return child;
    },
    async stop(child: ChildProcess, signal: "SIGKILL" | "SIGTERM") {
      process.kill(-child.pid!, signal);
      await until(() => !groupAlive(child.pid!), Boolean, 20_000, "the server's process group to be gone");
    },
    /** `npm run worker` (lib/workers/worker-main.ts) with the same environment, in a process group of its own. */
    startWorker(extra: Record<string, string> = {}) {
      const child = spawn(process.execPath, program("lib/workers/worker-main.ts"), {
        env: { ...env, ...extra },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      started.push(child);
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      return child;
    },
    /** For afterAll: kills whatever is left and returns the pids of groups still alive (none). */
    async killAll() {
      for (const child of started) if (groupAlive(child.pid!)) process.kill(-child.pid!, "SIGKILL");
      await until(() => started.every((c) => !groupAlive(c.pid!)), Boolean, 20_000, "every server process to be gone");
      return started.filter((c) => groupAlive(c.pid!)).map((c) => c.pid);
    },
  };
}

/** An ISV made with the CLI (`isv create --json`) against the servers' database: its ids and Basic auth. */
export async function createIsvWithCli(env: NodeJS.ProcessEnv, name: string) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...program("cli/index.ts"),
      "isv",
      "create",
      "--name",
      name,
      "--email",
      `cli-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`,
      "--password",
      "cli-password-1",
      "--json",
    ],
    { env },
  );
  const isv = JSON.parse(stdout) as { account_id: string; account_sid: string; secret_key: string };
  return { ...isv, auth: `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}` };
}
