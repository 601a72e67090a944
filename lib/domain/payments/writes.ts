import { compiledWrite } from "../../db/prepared";
import { paymentRequests } from "../../db/schema";

/** The request's insert, built once per set of columns (a terminal's, an invoice's...); none when a terminal's open one is there. */
export const insertRequest = compiledWrite("payment_request_insert", (db, values) =>
  db
    .insert(paymentRequests)
    .values(values as unknown as typeof paymentRequests.$inferInsert)
    .onConflictDoNothing()
    .returning(),
);
