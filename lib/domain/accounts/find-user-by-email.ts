import { eq } from "drizzle-orm";

import { users } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user ?? null;
}
