import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { HOME_COOKIE, HOME_SESSION_TTL_SECONDS, useLoginLink } from "@/lib/domain/home/login";
import { env } from "@/lib/env";

// GET /home/login/{token}: a single-use sign-in link (the ISV's button, or the e-mail). The
// session goes into an httpOnly cookie and the browser to the home, without the token in its
// history; a used or expired link lands on the sign-in page, saying so.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDatabase();
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  const used = /^[0-9A-Za-z]{20,64}$/.test(token) ? await useLoginLink(db, token, address) : null;
  // A relative Location: the browser stays on the host it opened the link on (Next's request.url
  // may name another of this service's names).
  if (!used) return new Response(null, { status: 303, headers: { Location: "/home/sign-in?link=used" } });
  const secure = env.APP_ENV === "production" || env.PUBLIC_BASE_URL.startsWith("https:");
  const cookie = `${HOME_COOKIE}=${used.session}; Path=/; Max-Age=${HOME_SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  return new Response(null, {
    status: 303,
    headers: { Location: "/home", "Set-Cookie": cookie, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
