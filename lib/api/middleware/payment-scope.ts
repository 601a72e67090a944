import type { MiddlewareHandler } from "hono";

import { paymentScope, type Scope } from "../../domain/scope";
import { allow, type Authorized } from "./auth";

/** Payments, charges and refunds: the ISV (key or JWT) for its merchants, or a merchant's own key (docs/reference.md section 2). */
type ScopedEnv = Authorized & { Variables: { scope: Scope } };
const paymentsCaller = allow<ScopedEnv>({ kinds: ["api_key", "user"], accountTypes: ["isv", "merchant"] });

/**
 * The guard of every payments operation, and the caller's payment scope (which merchants it may
 * see and act for) in `c.get("scope")`: routes hand it to the domain instead of working it out.
 */
export const withPaymentScope: MiddlewareHandler<ScopedEnv> = (c, next) =>
  paymentsCaller(c, async () => {
    c.set("scope", await paymentScope(c.get("db"), c.get("principal")));
    await next();
  });
