import { AsyncLocalStorage } from "node:async_hooks";

import type { Principal } from "../auth/principal";
import { env } from "../env";

// Who is making a change (docs/reference.md section 17), for the audit log: set once where the
// caller is known (the API's authentication, a page's server action, the operator CLI) and read by
// the domain where it writes, in the change's own transaction. Work with no actor (the worker's
// jobs, a customer paying on a hosted page) writes no audit entry.

export type Actor = {
  type: "user" | "api_key" | "cli" | "merchant" | "isv";
  id: string;
  /** A member's sign-in factor; a merchant's `wizard`, `home` or `embedded`; an ISV's `home` (acting in the merchant's home through its login link); an API key's last four characters. */
  via?: string | null;
  requestId?: string | null;
  clientAddress?: string | null;
};

const store = new AsyncLocalStorage<Actor>();

/** A dashboard member as the audit log's actor: its sign-in's second factor (`password` for none) as `via`. */
export const memberActor = (
  member: { userId: string; factor?: string | null },
  base: { requestId?: string | null; clientAddress?: string | null } = {},
): Actor => ({ type: "user", id: member.userId, via: member.factor ?? "password", ...base });

/** The actor of the work under way, if any (none, so no audit entry, in the bench's INSTRUMENTATION=off baseline). */
export const currentActor: () => Actor | undefined =
  env.INSTRUMENTATION === "off" ? () => undefined : () => store.getStore();

/** Runs `work` as `actor`: every change it makes is audited under that actor. */
export const asActor = <T>(actor: Actor, work: () => T): T => store.run(actor, work);

/** The actor of an API caller; none for the tokenizer's publishable key (it only makes card tokens). */
export function actorOf(
  principal: Principal,
  request: { requestId?: string; clientAddress?: string; keyLast4?: string },
): Actor | undefined {
  const base = { requestId: request.requestId ?? null, clientAddress: request.clientAddress ?? null };
  switch (principal.kind) {
    case "user":
      return memberActor(principal, base);
    case "api_key":
      return { type: "api_key", id: principal.accountId, via: request.keyLast4 ?? null, ...base };
    case "onboarding":
      return { type: "merchant", id: principal.merchantId, via: "wizard", ...base };
    default:
      return undefined;
  }
}
