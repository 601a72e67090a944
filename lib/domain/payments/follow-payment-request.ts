import { clock } from "../../clock";
import type { DatabaseHandle } from "../../db/types";
import { AppError } from "../../errors";
import { publicFailureReason } from "../../serializers/pay-result";
import { findPublicPaymentRequest } from "./find-payment-request";
import { PAYMENT_REQUEST_CHANNEL } from "./status";

export type LiveState = {
  id: string;
  status: string;
  charge_id: string | null;
  /** As the anonymous payer may read it (publicFailureReason). */
  last_failure_reason: string | null;
  /** Locked after too many declined attempts (card testing): PENDING but not payable. */
  locked: boolean;
};

/** How often a followed request is read again without a NOTIFY (a lost notification's safety net). */
const RECHECK_MS = 5_000;
/** How long one follower may follow (the page opens a new stream after). */
const FOLLOW_MS = 10 * 60_000;

type Subscriber = { push: (state: LiveState | null) => void };

/**
 * Everything this process follows of one request: its subscribers (open streams) share one database
 * read per change, whatever their number (docs/reference.md section 10, stream caps).
 */
class FollowedRequest {
  readonly subscribers = new Set<Subscriber>();
  last: LiveState | null = null;
  private text = "";
  private reading: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval>;
  final = false;

  constructor(
    private readonly handle: DatabaseHandle,
    readonly id: string,
    private readonly forget: () => void,
  ) {
    this.timer = setInterval(() => void this.refresh(), RECHECK_MS);
    this.timer.unref?.();
  }

  /** Reads the request once (a read already under way is followed by one more), and tells every subscriber of a change. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        const state = await this.read();
        if (state === undefined) continue;
        const text = state ? JSON.stringify(state) : "";
        if (state && text === this.text) continue;
        this.text = text;
        this.last = state;
        if (!state || state.status !== "PENDING") this.end();
        for (const s of this.subscribers) s.push(state);
      } while (this.again && !this.final);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** For a new subscriber: the read under way, or a first one (a change announced meanwhile still reads again). */
  firstRead(): Promise<void> {
    return this.reading ?? this.refresh();
  }

  /** The state now; null once the request is gone; undefined when the database did not answer (tried again later). */
  private async read(): Promise<LiveState | null | undefined> {
    try {
      const row = await findPublicPaymentRequest(this.handle.db, this.id);
      return {
        id: row.id,
        status: row.status,
        charge_id: row.chargeId,
        last_failure_reason: publicFailureReason(row.lastFailureReason),
        locked: row.lockedAt !== null,
      };
    } catch (error) {
      if (error instanceof AppError && error.code === "resource_missing") return null;
      return undefined;
    }
  }

  end() {
    if (this.final) return;
    this.final = true;
    clearInterval(this.timer);
    this.forget();
  }

  leave(subscriber: Subscriber) {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.end();
  }
}

/** One hub per database handle: the requests this process follows, and its one LISTEN. */
class LiveHub {
  private readonly followed = new Map<string, FollowedRequest>();
  private unlisten: Promise<() => Promise<void>> | null = null;

  constructor(private readonly handle: DatabaseHandle) {}

  /** How many requests and streams this process follows (the bench reports it). */
  get size() {
    let streams = 0;
    for (const f of this.followed.values()) streams += f.subscribers.size;
    return { requests: this.followed.size, streams };
  }

  private ensureListening() {
    this.unlisten ??= this.handle.listen(PAYMENT_REQUEST_CHANNEL, (changed) => {
      void this.followed.get(changed)?.refresh();
    });
    return this.unlisten;
  }

  private stopListeningIfIdle() {
    if (this.followed.size > 0 || !this.unlisten) return;
    const unlisten = this.unlisten;
    this.unlisten = null;
    void unlisten.then((fn) => fn()).catch(() => undefined);
  }

  async *follow(id: string, signal: AbortSignal): AsyncGenerator<LiveState> {
    await this.ensureListening();
    let followed = this.followed.get(id);
    if (!followed || followed.final) {
      const created: FollowedRequest = new FollowedRequest(this.handle, id, () => {
        if (this.followed.get(id) === created) this.followed.delete(id);
        this.stopListeningIfIdle();
      });
      this.followed.set(id, created);
      followed = created;
    }
    let pending: LiveState | null | undefined = followed.last ?? undefined;
    let wake: (() => void) | undefined;
    const subscriber: Subscriber = {
      push(state) {
        pending = state;
        wake?.();
      },
    };
    followed.subscribers.add(subscriber);
    const onAbort = () => wake?.();
    signal.addEventListener("abort", onAbort);
    const deadlineAt = clock.ms() + FOLLOW_MS;
    const deadline = setTimeout(onAbort, FOLLOW_MS);
    deadline.unref?.();
    try {
      if (pending === undefined) await followed.firstRead();
      while (!signal.aborted) {
        if (pending !== undefined) {
          const state: LiveState | null = pending;
          pending = undefined;
          if (state === null) return;
          yield state;
          if (state.status !== "PENDING") return;
          continue;
        }
        if (clock.ms() >= deadlineAt) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener("abort", onAbort);
      followed.leave(subscriber);
    }
  }
}

const hubs = new WeakMap<DatabaseHandle, LiveHub>();
const hubOf = (handle: DatabaseHandle) => {
  let hub = hubs.get(handle);
  if (!hub) hubs.set(handle, (hub = new LiveHub(handle)));
  return hub;
};

/**
 * A payment request's state now and at every change, until it is final, `signal` aborts or ten
 * minutes pass. Every stream of one request in this process shares one follower: a NOTIFY of the
 * request (at commit, from any instance on one PostgreSQL) wakes one database read, whose answer
 * goes to all of them; a re-read every 5 seconds is the safety net. Yields only when the state
 * differs from the last (an intermediate state may be skipped; the final one never is).
 */
export function followPaymentRequest(handle: DatabaseHandle, id: string, signal: AbortSignal) {
  return hubOf(handle).follow(id, signal);
}

/** What this process follows now (the bench's figure). */
export const followedNow = (handle: DatabaseHandle) => hubOf(handle).size;
