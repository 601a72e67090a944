import { type DatabaseHandle } from "@/lib/db/types";

import { createReserve, listReserves, operatorScopeOf, releaseReserve } from "../lib/domain/reserves/reserves";
import { invalidFields, issuesToFieldErrors } from "../lib/errors";
import { formatCents } from "../lib/money";
import { createReserveSchema } from "../lib/schemas/reserves";
import type { ReserveJson } from "../lib/serializers/reserve";

// The operator's reserves (docs/reference.md section 20): `merchant reserve`, `merchant reserves`,
// `merchant reserve-release`. The same rules as the ISV's API (the terms validated by its schema).

type Flags = Record<string, string | boolean | undefined>;

const describe = (r: ReserveJson) =>
  [
    r.id,
    r.status.padEnd(8),
    (r.type === "rolling"
      ? `${r.percent} % for ${r.hold_days} days`
      : `${formatCents(r.amount ?? 0, "en")} fixed`
    ).padEnd(22),
    `holds ${formatCents(r.held, "en")}`.padEnd(18),
    r.next_release ? `next back ${formatCents(r.next_release.amount, "en")} on ${r.next_release.date}` : "",
    `· ${r.reason}`,
  ].join("  ");

export async function reserveCommand(handle: DatabaseHandle, action: string, rest: string[], flags: Flags) {
  const merchantId = rest[0];
  if (!merchantId) return null;
  const scope = await operatorScopeOf(handle.db, merchantId);
  const merchant = { id: merchantId };
  if (action === "reserves") {
    const list = await listReserves(handle.db, scope, merchant.id);
    return { value: list, human: list.length ? list.map(describe).join("\n") : `${merchant.id} has no reserves` };
  }
  if (action === "reserve-release") {
    if (!rest[1]) return null;
    const released = await releaseReserve(handle.db, scope, merchant.id, rest[1]);
    return { value: released, human: `${released.id} released: what it held is available again` };
  }
  const terms =
    typeof flags.rolling === "string"
      ? {
          type: "rolling",
          percent: Number(flags.rolling),
          hold_days: Number(flags["hold-days"]),
          reason: flags.reason,
        }
      : {
          type: "fixed",
          amount: Number(flags.fixed),
          ...(typeof flags["release-on"] === "string" ? { release_on: flags["release-on"] } : {}),
          reason: flags.reason,
        };
  const parsed = createReserveSchema.safeParse(terms);
  if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues));
  const made = await createReserve(handle.db, scope, merchant.id, parsed.data, "operator");
  return { value: made, human: describe(made) };
}
