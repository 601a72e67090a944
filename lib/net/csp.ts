// Every Content-Security-Policy the service sends, built here from named parts, so that what each
// page may load and who may frame it reads in one place (docs/reference.md section 1).

type Directives = Record<string, string | readonly string[]>;

/** A policy's header value: its directives in order, each with its sources. */
export function buildCsp(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...(typeof sources === "string" ? [sources] : sources)].join(" "))
    .join("; ");
}

/** The `frame-ancestors` source list for these origins ('none' for none). */
export const frameAncestors = (origins: readonly string[]) => (origins.length ? origins.join(" ") : "'none'");

/**
 * The pages (wizard, home, dashboard, pay pages): scripts of this origin and the request's nonce
 * only; the card frame from its own origin; framed by nobody, except a component's page by the
 * origins its session names (and the branding preview by the dashboard).
 */
export const pagesCsp = (input: { nonce: string; dev: boolean; tokenizerOrigin: string; ancestors: string }) =>
  buildCsp({
    "default-src": "'self'",
    "script-src": ["'self'", `'nonce-${input.nonce}'`, "'strict-dynamic'", ...(input.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "https:", "data:", "blob:"],
    "font-src": "'self'",
    "connect-src": "'self'",
    "frame-src": ["'self'", input.tokenizerOrigin],
    "frame-ancestors": input.ancestors,
    "base-uri": "'none'",
    "form-action": "'self'",
  });

/** The card frame, on its own origin: its own script, its styles by nonce, framed by the pay page alone. */
export const tokenizerCsp = (input: { nonce: string; parentOrigin: string }) =>
  buildCsp({
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": `'nonce-${input.nonce}'`,
    "connect-src": "'self'",
    "frame-ancestors": input.parentOrigin,
    "base-uri": "'none'",
    "form-action": "'none'",
  });

/** An onboarding link's own page (used, expired, unknown): styles and a logo, nothing else. */
export const linkPageCsp = buildCsp({
  "default-src": "'none'",
  "style-src": "'unsafe-inline'",
  "img-src": ["https:", "http:", "data:", "'self'"],
  "base-uri": "'none'",
  "form-action": "'none'",
  "frame-ancestors": "'none'",
});

/** An embedded component's first page: its bootstrap script, framed by the origins the ISV allows. */
export const embedFrameCsp = (origins: readonly string[]) =>
  buildCsp({
    "default-src": "'none'",
    "script-src": "'self'",
    "connect-src": "'self'",
    "base-uri": "'none'",
    "form-action": "'none'",
    "frame-ancestors": frameAncestors(origins),
  });

/** The API reference (Scalar, served from this origin; it evaluates code of its own). */
export const docsCsp = buildCsp({
  "default-src": "'self'",
  "script-src": ["'self'", "'unsafe-inline'", "'unsafe-eval'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "font-src": ["'self'", "data:"],
  "connect-src": "'self'",
});

/** A guide served at /docs/<name>: no script at all; its own styles and images. */
export const guideCsp = buildCsp({
  "default-src": "'none'",
  "style-src": "'unsafe-inline'",
  "img-src": ["'self'", "data:"],
  "base-uri": "'none'",
  "form-action": "'none'",
  "frame-ancestors": "'none'",
});

/** A downloaded file: never rendered as a page of ours. */
export const downloadCsp = buildCsp({ "default-src": "'none'", sandbox: [] });
