import { eq, sql } from "drizzle-orm";

import { compiledWrite } from "../../db/prepared";
import { subscriptions } from "../../db/schema";

/** A subscription's update by id (a renewal's lease, a paid invoice, a failed attempt), built once per set of columns. */
export const updateSubscription = compiledWrite("subscription_update", (db, set) =>
  db
    .update(subscriptions)
    .set(set)
    .where(eq(subscriptions.id, sql.placeholder("id")))
    .returning(),
);
