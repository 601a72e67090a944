import { type NextRequest, NextResponse } from "next/server";

import { componentOfPath, EMBED_COMPONENT_HEADER, EMBED_COOKIE_PREFIX, frameOriginOf } from "@/lib/embed/frame";
import { env } from "@/lib/env";
import { frameAncestors, pagesCsp } from "@/lib/net/csp";

// Hosted pages only: the API (/v1), /docs and onboarding links never reach Next (server.ts hands
// them to Hono). Every page gets a Content-Security-Policy with a fresh nonce for Next's scripts.
export async function proxy(request: NextRequest) {
  // Inside an embedded component's frame, its pages may be framed by the host page's origin alone
  // (one of the ISV's embed_allowed_origins when the frame's session was opened).
  // Several components on one host page share the partition: the origins of every frame cookie.
  // Only the components' own pages (and the frame's "not here" page): a frame cookie never lets the
  // ISV's page frame the sign-in pages, the dashboard or the rest of the home.
  const component = componentOfPath(request.nextUrl.pathname);
  const framePage = component !== null || request.nextUrl.pathname === "/home/unavailable";
  const embedders = new Set<string>();
  for (const cookie of framePage ? request.cookies.getAll() : [])
    if (cookie.name.startsWith(EMBED_COOKIE_PREFIX)) {
      const origin = await frameOriginOf(cookie.value);
      if (origin) embedders.add(origin);
    }
  const nonce = btoa(crypto.randomUUID());
  const dev = process.env.NODE_ENV !== "production";
  const csp = pagesCsp({
    nonce,
    dev,
    // The card frame lives on its own origin (TOKENIZER_ORIGIN).
    tokenizerOrigin: env.TOKENIZER_ORIGIN,
    // The branding preview is framed by the dashboard; nothing else may be framed.
    ancestors: request.nextUrl.pathname === "/dashboard-preview" ? "'self'" : frameAncestors([...embedders]),
  });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  // The page's component, for the frame's shell (its session, appearance and host origin).
  headers.delete(EMBED_COMPONENT_HEADER);
  if (component) headers.set(EMBED_COMPONENT_HEADER, component);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  return response;
}

export const config = { matcher: ["/((?!v1/|docs|onboard/|tokenizer/|_next/static|_next/image|favicon.ico).*)"] };
