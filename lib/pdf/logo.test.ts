import http from "node:http";
import type { AddressInfo } from "node:net";

import QRCode from "qrcode";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";

import { clearLogoCache, loadLogo, LOGO_MAX_BYTES, sniffImage } from "./logo";

let png: Buffer;
let base = "";
const hits = new Map<string, number>();
const server = http.createServer((req, res) => {
  hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
  if (req.url === "/logo.png") return res.end(png);
  if (req.url === "/huge.png") return res.end(Buffer.concat([png, Buffer.alloc(LOGO_MAX_BYTES)]));
  if (req.url === "/page.html") return res.end("<html>not an image</html>");
  if (req.url === "/moved") return res.writeHead(302, { location: "/logo.png" }).end();
  if (req.url === "/slow") return setTimeout(() => res.end(png), 5_000);
  res.writeHead(404).end();
});

beforeAll(async () => {
  png = await QRCode.toBuffer("logo", { type: "png", width: 64 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  clearLogoCache();
  hits.clear();
});

describe("document logos", () => {
  test("sniffs PNG and JPEG by their bytes only", () => {
    expect(sniffImage(png)).toBe("png");
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpg");
    expect(sniffImage(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });

  test("a URL is fetched once and cached; its bytes come back as they were", async () => {
    const first = await loadLogo(`${base}/logo.png`, { publicOnly: false });
    expect(first).toEqual({ format: "png", bytes: new Uint8Array(png) });
    expect(await loadLogo(`${base}/logo.png`, { publicOnly: false })).toEqual(first);
    expect(hits.get("/logo.png")).toBe(1);
  });

  test("too large, not an image, a redirect, a 404 or too slow: no logo, never an error", async () => {
    for (const path of ["/huge.png", "/page.html", "/moved", "/missing.png"])
      expect(await loadLogo(`${base}${path}`, { publicOnly: false })).toBeNull();
    expect(hits.get("/logo.png")).toBeUndefined(); // the redirect was not followed
    const started = Date.now();
    expect(await loadLogo(`${base}/slow`, { publicOnly: false })).toBeNull();
    expect(Date.now() - started).toBeLessThan(4_500);
  }, 10_000);

  test("in production a private address is never fetched", async () => {
    expect(await loadLogo(`${base}/logo.png`, { publicOnly: true })).toBeNull();
    expect(hits.size).toBe(0);
  });

  test("uploaded images: PNG and JPEG embed; SVG and WebP, which a PDF cannot show, give the monogram", async () => {
    expect(await loadLogo(`data:image/png;base64,${png.toString("base64")}`, { publicOnly: true })).toEqual({
      format: "png",
      bytes: new Uint8Array(png),
    });
    expect(
      await loadLogo(`data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}`, { publicOnly: true }),
    ).toBeNull();
    // Declared PNG but not one.
    expect(
      await loadLogo(`data:image/png;base64,${Buffer.from("hello").toString("base64")}`, { publicOnly: true }),
    ).toBeNull();
  });

  test("a path is read from public/ and never outside it", async () => {
    expect(await loadLogo("/logo-default.svg", { publicOnly: true })).toBeNull(); // exists, but SVG
    expect(await loadLogo("/../package.json", { publicOnly: true })).toBeNull();
    expect(await loadLogo("/%2e%2e/package.json", { publicOnly: true })).toBeNull();
    expect(await loadLogo(null, { publicOnly: true })).toBeNull();
  });
});
