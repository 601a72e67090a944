import { type NextRequest, NextResponse } from "next/server";

import { EMBED_COOKIE, frameAncestors, frameOriginOf } from "@/lib/embed/frame";
import { env } from "@/lib/env";

// Hosted pages only: the API (/v1), /docs and onboarding links never reach Next (server.ts hands
// them to Hono). Every page gets a Content-Security-Policy with a fresh nonce for Next's scripts.
export async function proxy(request: NextRequest) {
  // Inside an embedded component's frame, its pages may be framed by the host page's origin alone
  // (one of the ISV's embed_allowed_origins when the frame's session was opened).
  const embedder = await frameOriginOf(request.cookies.get(EMBED_COOKIE)?.value);
  const nonce = btoa(crypto.randomUUID());
  const dev = process.env.NODE_ENV !== "production";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The card frame lives on its own origin (TOKENIZER_ORIGIN).
    `frame-src 'self' ${env.TOKENIZER_ORIGIN}`,
    // The branding preview is framed by the dashboard; nothing else may be framed.
    request.nextUrl.pathname === "/dashboard-preview"
      ? "frame-ancestors 'self'"
      : `frame-ancestors ${embedder ? frameAncestors([embedder]) : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  return response;
}

export const config = { matcher: ["/((?!v1/|docs|onboard/|tokenizer/|_next/static|_next/image|favicon.ico).*)"] };
