// An ISV's page with embedded components, and the tiny backend it needs (docs/embedding.md).
// Start it with `npm run example:embed` beside the service; copy what you need.
//
//   ONB_API            the service's address            (default http://localhost:3000)
//   ONB_ACCOUNT_SID    your account sid  } the API key of the ISV
//   ONB_SECRET_KEY     your secret key   }
//   ONB_MERCHANT_ID    the merchant shown (a real app takes the signed-in user's merchant)
//   PORT               this page's port                 (default 4242: http://localhost:4242)
//
// The page's origin (http://localhost:4242) must be in the ISV's settings.embed_allowed_origins.
/* global process, Buffer, URL, fetch, console */
import { readFileSync } from "node:fs";
import http from "node:http";

const components = new Set(["onboarding", "payments", "payouts", "disputes", "statements", "notification_banner"]);

/** POST /account-session {component}: your backend asks the service for one component of your merchant. */
export async function accountSession({ api, auth }, body) {
  const component = components.has(body?.component) ? body.component : "onboarding";
  const res = await fetch(`${api}/v1/account_sessions`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({
      merchant_id: body?.merchant_id || process.env.ONB_MERCHANT_ID,
      components: { [component]: { enabled: true } },
    }),
  });
  const answer = await res.json();
  // Only the client secret goes to the browser.
  return res.ok ? { status: 200, body: { client_secret: answer.client_secret } } : { status: res.status, body: answer };
}

/** POST /account-session as an HTTP answer: the JSON body read, the account session asked for, only its secret sent. */
export async function answerAccountSession(req, res, config) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  let body = null;
  try {
    body = JSON.parse(raw || "{}");
  } catch {
    body = null;
  }
  const answer = await accountSession(config, body).catch((e) => ({ status: 502, body: { error: String(e) } }));
  res.writeHead(answer.status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(answer.body));
}

export function startExample({
  port = Number(process.env.PORT ?? 4242),
  host = "localhost",
  api = (process.env.ONB_API ?? "http://localhost:3000").replace(/\/$/, ""),
  accountSid = process.env.ONB_ACCOUNT_SID ?? "",
  secretKey = process.env.ONB_SECRET_KEY ?? "",
} = {}) {
  const auth = `Basic ${Buffer.from(`${accountSid}:${secretKey}`).toString("base64")}`;
  const page = readFileSync(new URL("./index.html", import.meta.url), "utf8").replaceAll("{{ONB_API}}", api);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "POST" && url.pathname === "/account-session")
      return answerAccountSession(req, res, { api, auth });
    if (req.method === "GET" && url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(page);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startExample();
  const { port } = server.address();
  // eslint-disable-next-line no-console
  console.log(
    `Example ISV page on http://localhost:${port} (service: ${process.env.ONB_API ?? "http://localhost:3000"})`,
  );
}
