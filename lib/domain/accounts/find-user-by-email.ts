import { and, eq, isNull } from "drizzle-orm";

import { users } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** The live member with this address (a removed one is nobody). */
export async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), isNull(users.removedAt)));
  return user ?? null;
}
