import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { startBenchServer } from "./harness";
import { scaled } from "./short";
import { rssMb } from "./streams";

export type UploadsBench = {
  kind: string;
  uploads: number;
  megabytes: number;
  seconds: number;
  mbPerSecond: number;
  rssGrowthMb: number;
  failed: number;
};

/**
 * `count` uploads of a PDF just under 10 MB each, all at once, to one merchant (each different, so
 * none is a duplicate): wall time, throughput, and the server's peak resident memory over its
 * resident memory before (sampled every 50 ms). The server is tsx's child: its RSS is the one read.
 */
export async function benchUploads(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  count = scaled(20, 1),
): Promise<UploadsBench> {
  const server = await startBenchServer({ port: 3480, databaseUrl });
  try {
    const auth = { authorization: server.auth };
    const merchant = await server.call(
      "POST",
      "/v1/merchants",
      { phone: "+14155550123", merchant: { legal_business_name: example.legal_business_name } },
      auth,
    );
    const size = 10 * 1024 * 1024 - 4096;
    const head = Buffer.from("%PDF-1.4\n");
    const files = Array.from({ length: count }, (_, i) => {
      const bytes = Buffer.alloc(size, 32);
      head.copy(bytes);
      bytes.write(`% upload ${i} ${Date.now()}\n`, head.length);
      return bytes;
    });
    // The server's tree (tsx and the server it starts), as the streams bench reads it.
    const before = rssMb(server.pid) ?? 0;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid) ?? 0)), 50);
    const started = performance.now();
    const answers = await Promise.all(
      files.map(async (bytes, i) => {
        const form = new FormData();
        form.set("purpose", "additional_verification");
        form.set("merchant_id", merchant.id);
        form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), `statement-${i}.pdf`);
        const res = await fetch(`${server.base}/v1/files`, { method: "POST", body: form, headers: auth });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(server.pid) ?? 0);
    const megabytes = (size * count) / (1024 * 1024);
    return {
      kind,
      uploads: count,
      megabytes: Math.round(megabytes),
      seconds: Number(seconds.toFixed(2)),
      mbPerSecond: Number((megabytes / seconds).toFixed(1)),
      rssGrowthMb: Math.round(peak - before),
      failed: answers.filter((s) => s !== 200).length,
    };
  } finally {
    await server.stop();
  }
}

export function printUploads(results: UploadsBench[]) {
  console.log(
    `\nUploads: ${scaled(20, 1)} PDFs of 10 MB sent at once to POST /v1/files (server RSS sampled every 50 ms)`,
  );
  console.log(
    `${"database".padEnd(12)} ${"files".padStart(5)} ${"MB".padStart(5)} ${"s".padStart(7)} ${"MB/s".padStart(7)} ${"RSS +MB".padStart(8)} ${"failed".padStart(7)}`,
  );
  for (const u of results)
    console.log(
      `${u.kind.padEnd(12)} ${String(u.uploads).padStart(5)} ${String(u.megabytes).padStart(5)} ${String(u.seconds).padStart(7)} ${String(u.mbPerSecond).padStart(7)} ${String(u.rssGrowthMb).padStart(8)} ${String(u.failed).padStart(7)}`,
    );
}
