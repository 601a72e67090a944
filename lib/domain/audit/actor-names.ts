import { and, eq, ilike, inArray, or, sql } from "drizzle-orm";

import { merchants, users } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { businessName } from "../../merchants/facts";

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/**
 * The actors the dashboard's "who" filter names (docs/reference.md section 23): the ISV's own users
 * whose e-mail contains the text, its merchants whose name contains it, and the text itself as an id.
 */
export async function actorIdsMatching(db: DbOrTx, isvAccountId: string, text: string): Promise<string[]> {
  const like = escapeLike(text);
  const [people, shops] = await Promise.all([
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, isvAccountId), ilike(users.email, like))),
    db
      .select({ id: merchants.id })
      .from(merchants)
      .where(
        and(
          eq(merchants.isvAccountId, isvAccountId),
          or(
            ilike(sql`${merchants.application}->>'legal_business_name'`, like),
            ilike(sql`${merchants.application}->>'doing_business_as'`, like),
          ),
        ),
      )
      .limit(500),
  ]);
  return [...new Set([text, ...people.map((p) => p.id), ...shops.map((m) => m.id)])];
}

/** The names of a page's actors: a user's e-mail, a merchant's name (other actors have none). */
export async function actorNames(db: DbOrTx, isvAccountId: string, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const [people, shops] = await Promise.all([
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.accountId, isvAccountId), inArray(users.id, unique))),
    db
      .select()
      .from(merchants)
      .where(and(eq(merchants.isvAccountId, isvAccountId), inArray(merchants.id, unique))),
  ]);
  return new Map([
    ...people.map((p) => [p.id, p.email] as [string, string]),
    ...shops.map((m) => [m.id, businessName(m) || m.id] as [string, string]),
  ]);
}
