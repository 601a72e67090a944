import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";

import { compiledWrite } from "../../db/prepared";
import { paymentRequests } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import { type PaymentRequestMove, paymentRequestMoves } from "./rules";

export { effectiveStatus, isFinalRequest, isPastDeadline, type PaymentRequestMove, paymentRequestMoves } from "./rules";

// The payment request's one state machine (docs/reference.md section 10). Every write of `status` goes
// through `movePaymentRequest`: a conditional update from the move's named states, so a payment
// racing a cancel or the expiry job cannot both win, and the loser learns the current state.
//
//   PENDING --payRequest--> PAID      PENDING --cancelRequest--> CANCELED
//   PENDING --expireRequest--> EXPIRED (7 days; a TERMINAL request at its deadline)
// A declined card leaves the request PENDING, so the customer can try again.

type MoveColumns = Omit<Partial<typeof paymentRequests.$inferInsert>, "status" | "id">;

/** The move, or null when the request is not in a state it starts from (or `also` does not hold). */
export async function movePaymentRequestIfAllowed(
  tx: DbOrTx,
  id: string,
  move: PaymentRequestMove,
  set: MoveColumns = {},
  also?: SQL,
) {
  const { from, to } = paymentRequestMoves[move];
  const values = { ...set, status: to, lockedUntil: null };
  // The announcement made by the same statement, for the row it moved (none when nothing moved).
  const [row] = also
    ? await tx
        .update(paymentRequests)
        .set(values)
        .where(and(eq(paymentRequests.id, id), inArray(paymentRequests.status, [...from]), also))
        .returning({ ...getTableColumns(paymentRequests), announced: announce })
    : await moveStatement(move)(tx, values, { id });
  if (!row) return null;
  const { announced: _, ...moved } = row;
  return moved;
}

/** A move's update without a further condition (a payment's), built once per move and set of columns. */
const moveStatements = new Map<PaymentRequestMove, ReturnType<typeof compiledMove>>();
const compiledMove = (move: PaymentRequestMove) =>
  compiledWrite(`payment_request_${move}`, (db, set) =>
    db
      .update(paymentRequests)
      .set(set)
      .where(
        and(
          eq(paymentRequests.id, sql.placeholder("id")),
          inArray(paymentRequests.status, [...paymentRequestMoves[move].from]),
        ),
      )
      .returning({ ...getTableColumns(paymentRequests), announced: announce }),
  );
function moveStatement(move: PaymentRequestMove) {
  let statement = moveStatements.get(move);
  if (!statement) moveStatements.set(move, (statement = compiledMove(move)));
  return statement;
}

/** The channel on which a request's changes are announced (at commit) to its live pages' streams. */
export const PAYMENT_REQUEST_CHANNEL = "payment_request";

/** In a statement's RETURNING: announces each request it returns, as notifyPaymentRequest does. */
const announce = sql<unknown>`pg_notify(${PAYMENT_REQUEST_CHANNEL}, ${paymentRequests.id})`;

/** Announces, when the caller's transaction commits, that the request changed (every instance hears it on PostgreSQL). */
export async function notifyPaymentRequest(tx: DbOrTx, id: string) {
  await tx.execute(sql`select pg_notify(${PAYMENT_REQUEST_CHANNEL}, ${id})`);
}

/** The move, or 409 `invalid_state` naming the current and the expected states. */
export async function movePaymentRequest(tx: DbOrTx, id: string, move: PaymentRequestMove, set: MoveColumns = {}) {
  const moved = await movePaymentRequestIfAllowed(tx, id, move, set);
  if (moved) return moved;
  const { from } = paymentRequestMoves[move];
  const [current] = await tx
    .select({ status: paymentRequests.status })
    .from(paymentRequests)
    .where(eq(paymentRequests.id, id));
  throw invalidState(
    `Cannot ${move}: the payment request is ${current?.status ?? "missing"}, expected ${from.join(" or ")}`,
  );
}

/** Still PENDING but past its deadline: no longer payable, even before the expiry job has run. */
export const pastDeadline = sql`${paymentRequests.expiresAt} <= now()`;

/** No payment holds the request right now (a payment claims it while the processor authorizes). */
export const notBeingPaid = sql`(${paymentRequests.lockedUntil} is null or ${paymentRequests.lockedUntil} < now())`;
