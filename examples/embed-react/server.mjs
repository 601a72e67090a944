// The React version of examples/embed: the same backend (one route that makes account sessions),
// and a page built from app.tsx with esbuild when the server starts. `npm run example:embed-react`.
//
//   ONB_API, ONB_ACCOUNT_SID, ONB_SECRET_KEY, ONB_MERCHANT_ID, PORT: as examples/embed/server.mjs
//   (default port 4243). The page's origin must be in the ISV's settings.embed_allowed_origins.
/* global process, Buffer, URL, console */
import http from "node:http";

import { build } from "esbuild";

import { answerAccountSession } from "../embed/server.mjs";

/** The page's script: app.tsx with React and @onb/react (from this repository's source) in one file. */
async function bundle() {
  const result = await build({
    entryPoints: [new URL("./app.tsx", import.meta.url).pathname],
    bundle: true,
    write: false,
    format: "esm",
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    alias: { "@onb/react": new URL("../../packages/react/src/index.tsx", import.meta.url).pathname },
  });
  return result.outputFiles[0].text;
}

export async function startReactExample({
  port = Number(process.env.PORT ?? 4243),
  host = "localhost",
  api = (process.env.ONB_API ?? "http://localhost:3000").replace(/\/$/, ""),
  accountSid = process.env.ONB_ACCOUNT_SID ?? "",
  secretKey = process.env.ONB_SECRET_KEY ?? "",
} = {}) {
  const auth = `Basic ${Buffer.from(`${accountSid}:${secretKey}`).toString("base64")}`;
  const script = await bundle();
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Salon Software (React)</title></head>
<body><div id="root"></div>
<script>window.ONB_SERVICE = ${JSON.stringify(api)};</script>
<script type="module" src="/app.js"></script></body></html>`;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "POST" && url.pathname === "/account-session")
      return answerAccountSession(req, res, { api, auth });
    if (req.method === "GET" && url.pathname === "/app.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(script);
      return;
    }
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
  const server = await startReactExample();
  const { port } = server.address();
  // eslint-disable-next-line no-console
  console.log(
    `Example React ISV page on http://localhost:${port} (service: ${process.env.ONB_API ?? "http://localhost:3000"})`,
  );
}
