/**
 * Whether a request to one of the home's route handlers comes from the home's own pages: its
 * Origin names this host. An Origin of `null` (a sandboxed frame, a redirect across origins) or one
 * that does not parse is never the same origin; a missing one passes only when not `required` (a
 * plain form post from an old browser, still held by the SameSite=Lax cookie).
 */
export function isSameOrigin(request: Request, required: boolean): boolean {
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  if (origin === null) return !required;
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
