// `BENCH_SHORT=1 npm run bench` (what CI runs, so the bench cannot rot): every section, each with a
// small fraction of its work and about a second per timed run. Its figures are not comparable with a
// full run's, and the output says so.
export const SHORT = process.env.BENCH_SHORT === "1";

/** The size of a section's work: `full` in a real run, `short` in the short mode. */
export const scaled = (full: number, short: number) => (SHORT ? short : full);

if (SHORT) {
  process.env.BENCH_SECONDS ??= "1";
  process.env.BENCH_LIGHTHOUSE ??= "0";
  process.env.BENCH_PAYOUT_MERCHANTS ??= "20";
}
