import { eq, sql } from "drizzle-orm";

import { compiledSelect } from "../../db/prepared";
import { accounts, customers, merchants, paymentMethods, subscriptions } from "../../db/schema";
import { recoveredOfOne } from "../../ledger/recovered";

/**
 * A paid invoice's subscription under its lock, with what its dunning recovered (the payment just
 * posted counted: it is read in the payment's transaction).
 */
export const lockForPaidInvoice = compiledSelect("subscription_paid_lock", (db) =>
  db
    .select({ sub: subscriptions, recovered: recoveredOfOne(sql.placeholder("id")) })
    .from(subscriptions)
    .where(eq(subscriptions.id, sql.placeholder("id")))
    .for("update"),
);

/**
 * A subscription's step begins here: its row under its lock, with what a renewal reads (its customer,
 * merchant, ISV and payment method, and what its dunning recovered, for its events) in the same
 * statement; only the subscription's row is locked, as when they were read apart. Built once and
 * planned once per connection (it runs for every renewal).
 */
export const lockForStep = compiledSelect("subscription_step_lock", (db) =>
  db
    .select({
      sub: subscriptions,
      customer: customers,
      merchant: merchants,
      isv: accounts,
      method: paymentMethods,
      recovered: recoveredOfOne(sql.placeholder("id")),
    })
    .from(subscriptions)
    .leftJoin(customers, eq(customers.id, subscriptions.customerId))
    .leftJoin(merchants, eq(merchants.id, subscriptions.merchantId))
    .leftJoin(accounts, eq(accounts.id, subscriptions.isvAccountId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(eq(subscriptions.id, sql.placeholder("id")))
    .for("update", { of: subscriptions }),
);
