import { readFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";

import { isPublicAddress, publicOnlyLookup } from "../webhooks/address-guard";

// The ISV's logo for its documents (statements, the agreement): an uploaded image (a data URL), a
// file this service serves (`/logo.png`), or an http(s) URL fetched through the same address guard
// as webhooks (public addresses only, in every mode). PDFs embed PNG and JPEG only; an SVG or WebP logo, one that cannot be
// fetched, is too large or is not an image gives `null`, and the document shows the ISV's monogram
// instead: a document never fails because of its logo.

export type LogoImage = { format: "png" | "jpg"; bytes: Uint8Array };

export const LOGO_MAX_BYTES = 512 * 1024;
const FETCH_TIMEOUT_MS = 3_000;
const CACHE_TTL_MS = 60 * 60_000;
const MISS_TTL_MS = 5 * 60_000;
const CACHE_ENTRIES = 200;

/** What the bytes are, by their signature (never by a name or a Content-Type). */
export function sniffImage(bytes: Uint8Array): LogoImage["format"] | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  return null;
}

const asImage = (bytes: Uint8Array | null): LogoImage | null => {
  if (!bytes || bytes.length === 0 || bytes.length > LOGO_MAX_BYTES) return null;
  const format = sniffImage(bytes);
  return format ? { format, bytes: new Uint8Array(bytes) } : null;
};

const cache = new Map<string, { until: number; value: LogoImage | null }>();

/** The logo's bytes, or null when there is none a PDF can show. Never throws. */
export async function loadLogo(
  logo: string | null | undefined,
  options: { publicOnly: boolean },
): Promise<LogoImage | null> {
  if (!logo) return null;
  if (logo.startsWith("data:")) {
    const match = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+=*)$/.exec(logo);
    const data = match?.[2];
    return data ? asImage(Buffer.from(data, "base64")) : null;
  }
  const key = `${options.publicOnly ? "public" : "any"} ${logo}`;
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.value;
  const value = asImage(logo.startsWith("/") ? await readPublicFile(logo) : await fetchImage(logo, options.publicOnly));
  const oldest = cache.keys().next();
  if (cache.size >= CACHE_ENTRIES && !oldest.done) cache.delete(oldest.value);
  cache.set(key, { until: Date.now() + (value ? CACHE_TTL_MS : MISS_TTL_MS), value });
  return value;
}

/** Forget cached logos (tests; an ISV that changed its logo sees it within the hour otherwise). */
export function clearLogoCache() {
  cache.clear();
}

async function readPublicFile(urlPath: string): Promise<Uint8Array | null> {
  const root = path.resolve(process.cwd(), "public");
  const file = path.resolve(root, `.${decodeURIComponent(urlPath.split("?")[0] ?? "")}`);
  if (!file.startsWith(root + path.sep)) return null;
  return readFile(file).catch(() => null);
}

/** One GET: no redirects, 3 s for the whole answer, at most LOGO_MAX_BYTES, public addresses only in production. */
function fetchImage(url: string, publicOnly: boolean): Promise<Uint8Array | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(null);
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return Promise.resolve(null);
  // An address literal never goes through `lookup`: it is checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (publicOnly && net.isIP(literal) && !isPublicAddress(literal)) return Promise.resolve(null);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: Uint8Array | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const req = client.get(
      target,
      {
        headers: { accept: "image/png, image/jpeg", "user-agent": "onboarding-platform-documents/1" },
        ...(publicOnly ? { lookup: publicOnlyLookup } : {}),
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200 || Number(res.headers["content-length"] ?? 0) > LOGO_MAX_BYTES) {
          res.resume();
          req.destroy();
          return done(null);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > LOGO_MAX_BYTES) {
            req.destroy();
            return done(null);
          }
          chunks.push(chunk);
        });
        res.on("end", () => done(Buffer.concat(chunks)));
        res.on("error", () => done(null));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(null);
    }, FETCH_TIMEOUT_MS);
    req.on("error", () => done(null));
  });
}

/**
 * The ISV's logo for a document: a URL is fetched from public addresses only, in every mode (a
 * sandbox is public too: its ISVs must not make it fetch this machine's or its network's pages).
 */
export const documentLogo = (defaults: { logo?: string | null } | null | undefined) =>
  loadLogo(defaults?.logo, { publicOnly: true });
