import { cookies } from "next/headers";

import { firstPartyCookie, HOME_COOKIE, setCookieHeader } from "@/lib/auth/cookies";
import { HOME_SESSION_TTL_SECONDS, homeSessionOf } from "@/lib/auth/home-session";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { peekLoginLink, redeemLoginLink } from "@/lib/domain/home/login";

const tokenFormat = /^[0-9A-Za-z]{20,64}$/;

/** The answer that signs the browser in with `session` and takes it to the home. */
function signedIn(session: string) {
  const cookie = setCookieHeader(HOME_COOKIE, session, firstPartyCookie(HOME_SESSION_TTL_SECONDS));
  return new Response(null, {
    status: 303,
    headers: { Location: "/home", "Set-Cookie": cookie, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}

// GET /home/login/{token}: a single-use sign-in link (the ISV's button, or the e-mail). The
// session goes into an httpOnly cookie and the browser to the home, without the token in its
// history; a used or expired link lands on the sign-in page, saying so. A browser already signed in
// to another merchant is asked first (/home/switch/{token}): someone else's link, planted in a
// page, never swaps the merchant's session for the attacker's home silently (login CSRF).
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDatabase();
  // A relative Location: the browser stays on the host it opened the link on (Next's request.url
  // may name another of this service's names).
  const refused = () => new Response(null, { status: 303, headers: { Location: "/home/sign-in?link=used" } });
  if (!tokenFormat.test(token)) return refused();
  const current = await homeSessionOf(db, (await cookies()).get(HOME_COOKIE)?.value);
  if (current) {
    const target = await peekLoginLink(db, token);
    if (target && target.id !== current.merchant.id)
      return new Response(null, {
        status: 303,
        headers: { Location: `/home/switch/${token}`, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
      });
  }
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  const used = await redeemLoginLink(db, token, address, request.headers.get("host") ?? "");
  return used ? signedIn(used.session) : refused();
}
