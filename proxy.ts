import { NextResponse, type NextRequest } from "next/server";

// Hosted pages only: the API (/v1) and /docs never reach Next (server.ts hands them to Hono).
export function proxy(_request: NextRequest) {
  const response = NextResponse.next();
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  return response;
}

export const config = { matcher: ["/((?!v1/|docs|_next/static|_next/image|favicon.ico).*)"] };
