import { AppError } from "../errors";

// Status streams hold a connection and memory each: an open pay page needs one, an attacker could
// open thousands (docs/reference.md section 10). Each process caps them per payment request, per
// client address (TRUST_PROXY) and in all; past a cap the stream answers 429 with Retry-After, and
// the page falls back to polling. Counted in this process's memory: each instance holds its own
// connections, so each caps its own.

export type StreamCapLimits = { perRequest: number; perAddress: number; perProcess: number };
export const defaultStreamCaps: StreamCapLimits = { perRequest: 20, perAddress: 50, perProcess: 5_000 };
const RETRY_AFTER_SECONDS = 10;

export function streamCaps(limits: StreamCapLimits = defaultStreamCaps) {
  const byRequest = new Map<string, number>();
  const byAddress = new Map<string, number>();
  let total = 0;
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };
  return {
    /** Takes a place for one stream, or throws 429; the answer frees it (call it once, when the stream ends). */
    acquire(requestId: string, address: string): () => void {
      const refuse = (what: string) =>
        new AppError(
          "rate_limited",
          `Too many open status streams ${what}; try again later (the pay page polls meanwhile)`,
          {
            retryAfterSeconds: RETRY_AFTER_SECONDS,
          },
        );
      if (total >= limits.perProcess) throw refuse("on this server");
      if ((byRequest.get(requestId) ?? 0) >= limits.perRequest) throw refuse("for this payment request");
      if ((byAddress.get(address) ?? 0) >= limits.perAddress) throw refuse("from this address");
      total++;
      bump(byRequest, requestId, 1);
      bump(byAddress, address, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        bump(byRequest, requestId, -1);
        bump(byAddress, address, -1);
      };
    },
    get open() {
      return total;
    },
  };
}
export type StreamCaps = ReturnType<typeof streamCaps>;
