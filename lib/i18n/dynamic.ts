// Messages whose key is built at run time (an underwriting code, an enumeration value, an event
// type): the catalogue's keys are typed, so a made-up key needs a cast; it is made here once, and
// a key the catalogue lacks answers null for the caller's fallback (the API's own message, the raw
// value) instead of showing the key.

type Translator = { (key: never, values?: never): string; has(key: never): boolean };
type Loose = { (key: string, values?: Record<string, unknown>): string; has(key: string): boolean };

/** The message at `key` with `values`, or null when there is none. */
export function messageOr(t: Translator, key: string, values?: Record<string, unknown>): string | null {
  const loose = t as unknown as Loose;
  return loose.has(key) ? loose(key, values) : null;
}
