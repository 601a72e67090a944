// The card frame's origin (docs/reference.md section 10): the tokenizer is served from an origin of
// its own, so that no page of the service (and no script that ever got into one) can read the card
// number or the CVC out of the frame: a cross-origin frame's document is closed to its parent.

/**
 * TOKENIZER_ORIGIN when set (for example https://tokenizer.example.com, pointing at the same
 * servers; in development http://tokenizer.localhost:3000, which browsers resolve to this machine);
 * unset, the service's own origin, shared (the server warns at start when that is production).
 */
export function tokenizerOriginFor(publicBaseUrl: string, configured?: string): { origin: string; separate: boolean } {
  const base = new URL(publicBaseUrl);
  if (configured) {
    const origin = new URL(configured).origin;
    return { origin, separate: origin !== base.origin };
  }
  return { origin: base.origin, separate: false };
}
