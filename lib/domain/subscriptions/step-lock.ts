import { eq, sql } from "drizzle-orm";

import { compiledSelect } from "../../db/prepared";
import { accounts, customers, merchants, paymentMethods, subscriptions } from "../../db/schema";

/**
 * A subscription's step begins here: its row under its lock, with what a renewal reads (its customer,
 * merchant, ISV and payment method) in the same statement; only the subscription's row is locked, as
 * when they were read apart. Built once and planned once per connection (it runs for every renewal).
 */
export const lockForStep = compiledSelect("subscription_step_lock", (db) =>
  db
    .select({ sub: subscriptions, customer: customers, merchant: merchants, isv: accounts, method: paymentMethods })
    .from(subscriptions)
    .leftJoin(customers, eq(customers.id, subscriptions.customerId))
    .leftJoin(merchants, eq(merchants.id, subscriptions.merchantId))
    .leftJoin(accounts, eq(accounts.id, subscriptions.isvAccountId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(eq(subscriptions.id, sql.placeholder("id")))
    .for("update", { of: subscriptions }),
);
