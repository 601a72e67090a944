import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { openDatabase } from "../lib/db/client";
import { charges, ledgerEntries, ledgerPostings, paymentRequests } from "../lib/db/schema";
import type { Db } from "../lib/db/types";
import { createId } from "../lib/ids";
import { availableOnFor } from "../lib/ledger/post";
import { buildBundles } from "../scripts/cli-bundle";

const exec = promisify(execFile);
export const tsx = path.resolve("node_modules/.bin/tsx");

let template: Promise<string> | undefined;
/** The CLI that makes each server's ISV and the server, compiled once per run (scripts/cli-bundle.ts). */
let programs: Promise<string[]> | undefined;
const compiled = () => (programs ??= buildBundles("bench", ["cli/index.ts", "server.ts"]));

/**
 * node's arguments to start the server: the run's compiled one, or with BENCH_PROFILE_DIR=dir the
 * source through tsx writing a V8 CPU profile there when it stops (its functions by source file, as
 * scripts/profile-layers.mjs sorts them; open it in Chrome's DevTools).
 */
export async function serverArgs(): Promise<string[]> {
  const profile = process.env.BENCH_PROFILE_DIR;
  if (profile) return ["--cpu-prof", `--cpu-prof-dir=${profile}`, "--import", "tsx", "server.ts"];
  return [(await compiled())[1]!];
}

/**
 * A new data directory for a section's server or database. On PGlite (no `databaseUrl`) its database
 * starts migrated: a copy of one cluster made and migrated once per run, as the test suites do
 * (tests/global-setup.ts). Each section used to create and migrate its own, about 2.5 s of every one
 * of the run's twenty-odd server starts; what the sections measure runs after it, on the same schema.
 */
export async function benchDataDir(prefix: string, databaseUrl?: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (databaseUrl) return dir;
  template ??= (async () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), "onb-bench-template-"));
    process.once("exit", () => fs.rmSync(made, { recursive: true, force: true }));
    await (await openDatabase({ dataDir: made, poolSize: 1 })).close();
    return path.join(made, "pgdata");
  })();
  fs.cpSync(await template, path.join(dir, "pgdata"), { recursive: true });
  return dir;
}

/**
 * The real server (server.ts, production mode) on a loopback port, with its own data directory or
 * the given PostgreSQL database, and an ISV made with the CLI (through the running server).
 */
export async function startBenchServer(options: {
  port: number;
  databaseUrl?: string;
  pages?: boolean;
  /** More environment for the server (RUN_WORKER=0...). */
  env?: Record<string, string>;
  /** An earlier server's data directory (PGlite) and ISV: a restart on the same database. */
  reuse?: { dataDir: string; auth: string };
}) {
  const base = `http://127.0.0.1:${options.port}`;
  const env = {
    ...process.env,
    DATA_DIR: options.reuse?.dataDir ?? (await benchDataDir("onb-bench-", options.databaseUrl)),
    PORT: String(options.port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: base,
    SERVE_PAGES: options.pages ? "1" : "0",
    LOG_LEVEL: "warn",
    SEED_DEMO: "0",
    RATE_LIMIT_PER_SECOND: "1000000",
    // A load test's budgets: every client of the bench is this one loopback address.
    TOKENS_PER_ADDRESS_PER_MINUTE: "1000000",
    UPLOADS_PER_CLIENT: "1000",
    UPLOADS_PER_MERCHANT_PER_DAY: "1000000",
    NODE_ENV: "production",
    APP_ENV: "sandbox",
    ...options.env,
  } as NodeJS.ProcessEnv;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const server: ChildProcess = spawn(process.execPath, await serverArgs(), {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  };
  try {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
      try {
        if ((await fetch(`${base}/v1/openapi.json`)).ok) break;
      } catch {
        /* starting */
      }
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    let auth = options.reuse?.auth;
    if (!auth) {
      const { stdout } = await exec(
        process.execPath,
        [
          (await compiled())[0]!,
          "isv",
          "create",
          "--name",
          "Bench POS",
          "--email",
          `bench-${Date.now()}-${options.port}@example.test`,
          "--password",
          "bench-password-1",
          "--json",
        ],
        { env },
      );
      const isv = JSON.parse(stdout) as { account_sid: string; secret_key: string };
      auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
    }
    /** A JSON call to the server (the ISV's key unless other headers are given). */
    const call = async (
      method: string,
      p: string,
      body?: unknown,
      headers: Record<string, string> = { authorization: auth },
    ) =>
      (
        await fetch(base + p, {
          method,
          headers: { ...headers, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json();
    return { base, auth, call, stop, dataDir: env.DATA_DIR!, pid: server.pid };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Paid card charges written straight to the database (AUTHORIZED, $100.00, fee $3.20), with the
 * requests they paid, 1,000 rows a statement: a day of a merchant's sales for the settlement benches.
 * Answers the charges' ids.
 */
export async function insertPaidCharges(
  db: Db,
  input: {
    isvAccountId: string;
    merchantId: string;
    count: number;
    at: Date;
    /** Each charge's costs (section 19) and the ISV's platform fee (with its posting), when given. */
    costs?: number;
    platformFee?: number;
  },
): Promise<string[]> {
  const ids: string[] = [];
  const at = input.at;
  for (let i = 0; i < input.count; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, input.count - i) }, () => ({
      pr: createId("pr"),
      ch: createId("ch"),
    }));
    await db.insert(paymentRequests).values(
      batch.map((b) => ({
        id: b.pr,
        isvAccountId: input.isvAccountId,
        merchantId: input.merchantId,
        paymentType: "SCAN_TO_PAY" as const,
        status: "PAID" as const,
        amount: 10_000,
        tax: 0,
        tip: 0,
        chargeId: b.ch,
        expiresAt: at,
        paidAt: at,
      })),
    );
    await db.insert(charges).values(
      batch.map((b) => ({
        id: b.ch,
        isvAccountId: input.isvAccountId,
        merchantId: input.merchantId,
        paymentRequestId: b.pr,
        paymentType: "SCAN_TO_PAY" as const,
        status: "AUTHORIZED" as const,
        requestedAmount: 10_000,
        amountAuthorized: 10_000,
        amountCaptured: 10_000,
        tip: 0,
        tax: 0,
        cardBrand: "visa",
        cardLast4: "4242",
        cardEntryMethod: "MANUAL" as const,
        receiptNumber: b.ch.slice(3, 11),
        fee: 320,
        costs: input.costs ?? null,
        margin: input.costs === undefined ? null : 320 - input.costs,
        platformFee: input.platformFee ?? null,
        createdAt: at,
        authorizedAt: at,
        capturedAt: at,
      })),
    );
    // In the ledger as postCharge writes them (lib/ledger/payment-movements.ts), in bulk.
    const postings = batch.map((b) => ({ id: createId("txn"), charge: b.ch }));
    await db.insert(ledgerPostings).values(
      postings.map((p) => ({
        id: p.id,
        isvAccountId: input.isvAccountId,
        merchantId: input.merchantId,
        type: "charge" as const,
        sourceId: p.charge,
        amount: 10_000,
        fee: 320,
        net: 9_680,
        description: "Payment by visa •••• 4242",
        availableOn: availableOnFor(at),
        // It moves the merchant's pending money: the next settlement takes it (lib/ledger/post.ts says so of every posting).
        movesPending: true,
        createdAt: at,
      })),
    );
    await db.insert(ledgerEntries).values(
      postings.flatMap((p) => [
        { postingId: p.id, account: "card_clearing" as const, ownerId: null, amount: -10_000, createdAt: at },
        { postingId: p.id, account: "pending" as const, ownerId: input.merchantId, amount: 9_680, createdAt: at },
        { postingId: p.id, account: "processing_revenue" as const, ownerId: null, amount: 320, createdAt: at },
      ]),
    );
    if (input.costs) {
      // What each charge cost the platform, as postCharge posts it (an internal `cost` posting).
      const costs = input.costs;
      const costPostings = batch.map((b) => ({ id: createId("txn"), charge: b.ch }));
      await db.insert(ledgerPostings).values(
        costPostings.map((p) => ({
          id: p.id,
          isvAccountId: input.isvAccountId,
          merchantId: input.merchantId,
          type: "cost" as const,
          sourceId: p.charge,
          amount: 0,
          fee: 0,
          net: 0,
          description: `Costs of ${p.charge}`,
          availableOn: availableOnFor(at),
          createdAt: at,
        })),
      );
      await db.insert(ledgerEntries).values(
        costPostings.flatMap((p) => [
          { postingId: p.id, account: "processing_revenue" as const, ownerId: null, amount: -costs, createdAt: at },
          { postingId: p.id, account: "processing_costs" as const, ownerId: null, amount: costs, createdAt: at },
        ]),
      );
    }
    if (input.platformFee) {
      const fee = input.platformFee;
      const feePostings = batch.map((b) => ({ id: createId("txn"), charge: b.ch }));
      await db.insert(ledgerPostings).values(
        feePostings.map((p) => ({
          id: p.id,
          isvAccountId: input.isvAccountId,
          merchantId: input.merchantId,
          type: "platform_fee" as const,
          sourceId: p.charge,
          amount: -fee,
          fee: 0,
          net: -fee,
          description: "Bench ISV fee",
          availableOn: availableOnFor(at),
          movesPending: true,
          createdAt: at,
        })),
      );
      await db.insert(ledgerEntries).values(
        feePostings.flatMap((p) => [
          { postingId: p.id, account: "pending" as const, ownerId: input.merchantId, amount: -fee, createdAt: at },
          { postingId: p.id, account: "revenue" as const, ownerId: input.isvAccountId, amount: fee, createdAt: at },
        ]),
      );
    }
    ids.push(...batch.map((b) => b.ch));
  }
  return ids;
}
