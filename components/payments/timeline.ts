/**
 * A payment's "What happened" (docs/reference.md section 15): its moments and its refunds in the
 * order they happened (a refund made before the settlement is listed before it), moments that did
 * not happen left out. Ties keep their given order (authorized before settled).
 */
export function timelineOf<L>(
  moments: readonly (readonly [L, Date | null])[],
  refunds: readonly { amount: number; createdAt: Date; status?: string }[],
  refundLabel: (amount: number) => L,
): { label: L; at: Date }[] {
  const entries = [
    ...moments.flatMap(([label, at]) => (at ? [{ label, at }] : [])),
    // A refund the processor declined moved nothing.
    ...refunds.filter((r) => r.status !== "failed").map((r) => ({ label: refundLabel(r.amount), at: r.createdAt })),
  ];
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || a.index - b.index)
    .map(({ entry }) => entry);
}
