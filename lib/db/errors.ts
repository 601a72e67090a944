/** Whether a write failed on a unique index (PostgreSQL's 23505), however deeply the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

/** PostgreSQL's codes for a transaction that lost a race and may simply be run again: a deadlock, a serialization failure. */
const RETRYABLE = new Set(["40P01", "40001"]);

/** Whether a transaction failed only because it lost a race (a deadlock, a serialization failure). */
export function isRetryableConflict(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (RETRYABLE.has((e as { code?: string }).code ?? "")) return true;
  }
  return false;
}

/**
 * Runs a transaction again when it lost a race (deadlock, serialization failure), at most `attempts`
 * times in all, after a short random wait; any other error, or the last attempt's, is thrown. Only
 * for transactions that call nothing outside the database (docs/reference.md section 10, "Calls to
 * the processor"): running one again must do nothing twice.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 20));
    }
  }
}
