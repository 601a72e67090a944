import fs from "node:fs";

import type { EmbedBench } from "./embed";
import type { HomeBench } from "./home";
import type { LedgerBench } from "./ledger";
import type { OverviewBench } from "./overview";
import type { PaymentsBench } from "./payments";
import type { PayoutsBench } from "./payouts";
import type { RevenueBench } from "./revenue";
import type { RiskBench } from "./risk";
import type { SettlementBench } from "./settlement";
import type { StreamsBench } from "./streams";
import type { SubscriptionsBench } from "./subscriptions";
import type { UnderwritingBench } from "./underwriting";
import type { UploadsBench } from "./uploads";
import type { DrainBench, WebhookBench } from "./webhooks";
import type { StepFigure } from "./wizard";

// The bench's figures as data: `BENCH_JSON=path npm run bench` writes them as one JSON object
// ({ run_at, figures: [{ name, value, unit }] }) so that runs can be compared.

export type Figure = { name: string; value: number; unit: string };

type Inputs = {
  api?: { name: string; rps: number; p50: number; p99: number; cpuUs?: number | null }[];
  ratios?: { database: string; value: number }[];
  opsRatios?: { database: string; value: number }[];
  pairedOps?: { database: string; median: number; min: number; max: number }[];
  pairedPermission?: { database: string; median: number }[];
  webhooks?: WebhookBench[];
  drains?: DrainBench[];
  underwriting?: UnderwritingBench[];
  uploads?: UploadsBench[];
  payments?: PaymentsBench[];
  settlement?: SettlementBench[];
  jobs?: { kind: string; jobs: number; perSecond: number }[];
  wizard?: StepFigure[];
  streams?: StreamsBench[];
  home?: HomeBench[];
  embed?: EmbedBench[];
  payouts?: PayoutsBench[];
  ledger?: LedgerBench[];
  revenue?: RevenueBench[];
  overview?: OverviewBench[];
  risk?: RiskBench[];
  subscriptions?: SubscriptionsBench[];
};

export function collectFigures(input: Inputs): Figure[] {
  const out: Figure[] = [];
  const add = (name: string, value: number | null | undefined, unit: string) => {
    if (value !== null && value !== undefined && Number.isFinite(value)) out.push({ name, value, unit });
  };
  for (const r of input.api ?? []) {
    add(`${r.name} throughput`, Math.round(r.rps), "req/s");
    add(`${r.name} latency p50`, r.p50, "ms");
    add(`${r.name} latency p99`, r.p99, "ms");
    add(`${r.name} server CPU per request`, r.cpuUs == null ? null : Math.round(r.cpuUs), "µs");
  }
  for (const r of input.ratios ?? [])
    add(
      r.database.includes(" merchant") ? `API/bare ${r.database}` : `GET /v1/account API/bare ${r.database}`,
      Number(r.value.toFixed(2)),
      "ratio",
    );
  for (const r of input.opsRatios ?? [])
    add(`API with metrics and audit / without, best of rounds, ${r.database}`, Number(r.value.toFixed(2)), "ratio");
  for (const r of input.pairedOps ?? [])
    add(`API with metrics and audit / without, paired median, ${r.database}`, Number(r.median.toFixed(2)), "ratio");
  for (const r of input.pairedPermission ?? [])
    add(`API restricted key / standard key, paired median, ${r.database}`, Number(r.median.toFixed(2)), "ratio");
  for (const r of input.risk ?? [])
    add(
      `daily risk job over ${r.merchants} merchants x 30 days of charges ${r.kind}`,
      Number(r.seconds.toFixed(2)),
      "s",
    );
  for (const r of input.subscriptions ?? [])
    add(
      `test clock advanced a month over ${r.subscriptions} subscriptions ${r.kind}`,
      Number(r.seconds.toFixed(2)),
      "s",
    );
  for (const l of input.ledger ?? []) {
    add(`GET /v1/balance query p50, ${l.transactions} transactions ${l.kind}`, l.balanceP50Ms, "ms");
    add(`GET /v1/balance query p99, ${l.transactions} transactions ${l.kind}`, l.balanceP99Ms, "ms");
    add(`ledger_check over ${l.entries} entries ${l.kind}`, l.checkSeconds, "s");
  }
  for (const r of input.revenue ?? []) {
    add(
      `residual of ${r.merchants} merchants x ${r.charges / r.merchants} charges ${r.kind}`,
      Number(r.residualSeconds.toFixed(2)),
      "s",
    );
    add(
      `make and pay a payment with 20 platform fee rules / without, median ${r.kind}`,
      Number((1 + r.rulesOverhead).toFixed(3)),
      "ratio",
    );
  }
  for (const o of input.overview ?? []) {
    add(
      `dashboard overview p50, ${o.merchants} merchants ${o.charges} charges ${o.kind}`,
      Number(o.p50Ms.toFixed(1)),
      "ms",
    );
    add(
      `dashboard overview p95, ${o.merchants} merchants ${o.charges} charges ${o.kind}`,
      Number(o.p95Ms.toFixed(1)),
      "ms",
    );
  }
  for (const p of input.payouts ?? []) {
    add(
      `settlement plus payouts, ${p.merchants} merchants x ${p.charges / p.merchants} charges ${p.kind}`,
      Number(p.settleSeconds.toFixed(1)),
      "s",
    );
    add(`payouts sent, ${p.payouts} ${p.kind}`, Number(p.sendSeconds.toFixed(1)), "s");
    add(
      `payout run, ${p.runPayouts} due of ${p.merchants} on mixed schedules ${p.kind}`,
      Number(p.runSeconds.toFixed(1)),
      "s",
    );
    add(`settlement plus payouts peak memory ${p.kind}`, p.peakRssMb, "MB");
  }
  for (const w of input.webhooks ?? []) {
    add(`POST /v1/merchants with a webhook, 25 at a time ${w.kind}`, Math.round(w.createsPerSecond), "req/s");
    add(`webhook deliveries ${w.kind}`, Math.round(w.deliveriesPerSecond), "deliveries/s");
    add(`event to delivery p50 ${w.kind}`, w.p50, "ms");
    add(`event to delivery p99 ${w.kind}`, w.p99, "ms");
  }
  for (const d of input.drains ?? [])
    add(`webhook backlog drain ${d.kind}`, Math.round(d.deliveriesPerSecond), "deliveries/s");
  for (const s of input.streams ?? []) {
    add(`GET /v1/account p99 while ${s.attackers} clients stream one request ${s.kind}`, s.attackP99, "ms");
    add(`GET /v1/account p99 without streams ${s.kind}`, s.idleP99, "ms");
    add(`status streams held of ${s.attackers} ${s.kind}`, s.heldMax, "streams");
    add(`server RSS while ${s.attackers} clients stream ${s.kind}`, s.attackRssMb, "MB");
  }
  for (const e of input.embed ?? []) {
    add("embed loader /embed/v1.js gzip", Number((e.loaderGzipBytes / 1024).toFixed(1)), "KB");
    add(`embedded onboarding mount to first step p50 ${e.kind}`, e.p50, "ms");
    add(`embedded onboarding mount to first step p90 ${e.kind}`, e.p90, "ms");
  }
  for (const h of input.home ?? []) {
    for (const [name, f] of [
      ["payments list", h.list],
      ["payments list filtered", h.filtered],
      ["payments list next page", h.nextPage],
      ["overview", h.overview],
    ] as const) {
      add(`home ${name} p50 with ${h.charges} charges ${h.kind}`, f.p50, "ms");
      add(`home ${name} p99 with ${h.charges} charges ${h.kind}`, f.p99, "ms");
    }
    for (const page of h.pages) add(`home ${page.page} script (gzip)`, Math.round(page.jsGzipBytes / 1024), "KB");
  }
  for (const u of input.underwriting ?? []) {
    add(`submit to decision p50 ${u.kind}`, u.p50, "ms");
    add(`submit to decision p99 ${u.kind}`, u.p99, "ms");
  }
  for (const u of input.uploads ?? []) {
    add(`${u.uploads} concurrent 10 MB uploads ${u.kind}`, u.mbPerSecond, "MB/s");
    add(`server RSS growth during ${u.uploads} concurrent 10 MB uploads ${u.kind}`, u.rssGrowthMb, "MB");
  }
  for (const p of input.payments ?? []) {
    add(`scan_to_pay creates ${p.kind}`, Math.round(p.createRps), "req/s");
    add(`scan_to_pay API/bare ${p.kind}`, Number((p.createRps / p.bareCreateRps).toFixed(2)), "ratio");
    add(`pay to charge.paid p50 ${p.kind}`, p.payToWebhookP50, "ms");
    add(`pay to charge.paid p99 ${p.kind}`, p.payToWebhookP99, "ms");
    add("pay page script gzip", p.payPageJsGzip === null ? null : Number((p.payPageJsGzip / 1024).toFixed(1)), "KB");
  }
  for (const s of input.settlement ?? []) {
    add(`refunds ${s.kind}`, Math.round(s.refundRps), "req/s");
    add(`settle ${s.charges} charges ${s.kind}`, s.settleSeconds, "s");
  }
  for (const j of input.jobs ?? []) add(`no-op jobs ${j.kind}`, Math.round(j.perSecond), "jobs/s");
  for (const f of input.wizard ?? []) {
    add(`wizard ${f.step} script gzip`, Number((f.jsGzipBytes / 1024).toFixed(1)), "KB");
    add(`wizard ${f.step} Lighthouse performance`, f.performance, "score");
    add(`wizard ${f.step} Lighthouse accessibility`, f.accessibility, "score");
  }
  // One figure per name: the payments bench measures the pay page once, on PGlite.
  return out.filter((f, i) => out.findIndex((g) => g.name === f.name) === i);
}

/** Writes the figures to BENCH_JSON when it is set; answers the path written, or null. */
export function writeFigures(figures: Figure[]): string | null {
  const target = process.env.BENCH_JSON;
  if (!target) return null;
  fs.writeFileSync(target, `${JSON.stringify({ run_at: new Date().toISOString(), figures }, null, 2)}\n`);
  return target;
}
