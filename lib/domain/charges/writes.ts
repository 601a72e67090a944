import { compiledWrite } from "../../db/prepared";
import { charges } from "../../db/schema";

/** A charge's insert (every payment's outcome), built once per set of columns: its row as written. */
export const insertCharge = compiledWrite("charge_insert", (db, values) =>
  db
    .insert(charges)
    .values(values as unknown as typeof charges.$inferInsert)
    .returning(),
);
