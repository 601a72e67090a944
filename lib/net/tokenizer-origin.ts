// The card frame's origin (docs/reference.md section 10): the tokenizer is served from an origin of
// its own, so that no page of the service (and no script that ever got into one) can read the card
// number or the CVC out of the frame: a cross-origin frame's document is closed to its parent.

/**
 * TOKENIZER_ORIGIN when set (for example https://tokenizer.example.com, pointing at the same
 * servers). Unset on this machine's loopback (development, the tests, `npm start`): the other
 * loopback name on the same port (`localhost` ↔ `127.0.0.1`), a second origin the server answers on
 * that every browser resolves, so the frame is isolated by default. Unset on a public base URL: the
 * service's own origin, shared (the server warns at start when that is production). Set to the
 * service's own origin, shared on purpose.
 */
export function tokenizerOriginFor(publicBaseUrl: string, configured?: string): { origin: string; separate: boolean } {
  const base = new URL(publicBaseUrl);
  if (configured) {
    const origin = new URL(configured).origin;
    return { origin, separate: origin !== base.origin };
  }
  const other = loopbackTwin(base.hostname);
  if (other) {
    const frame = new URL(base.origin);
    frame.hostname = other;
    return { origin: frame.origin, separate: true };
  }
  return { origin: base.origin, separate: false };
}

/** The other name of this machine's loopback, for a loopback host; null for any other host. */
function loopbackTwin(hostname: string): string | null {
  if (hostname === "localhost") return "127.0.0.1";
  if (hostname === "127.0.0.1" || hostname === "[::1]") return "localhost";
  return null;
}
