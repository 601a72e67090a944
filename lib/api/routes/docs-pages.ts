import fs from "node:fs";
import path from "node:path";

import type { OpenAPIHono } from "@hono/zod-openapi";

import { escapeHtml } from "../../html";
import { guideCsp } from "../../net/csp";
import type { AppEnv } from "../context";

// The guides of docs/ served beside the API reference, as pages (the API's messages and the OpenAPI
// document point here, never to a file of the repository): /docs/guide (docs/reference.md, its
// sections at #section-N), /docs/changelog, /docs/quickstart, /docs/webhooks, /docs/embedding.

export const docsPages = {
  guide: { file: "reference.md", title: "Guide: the platform's rules" },
  changelog: { file: "changelog.md", title: "API changelog" },
  quickstart: { file: "quickstart.md", title: "Quickstart" },
  webhooks: { file: "webhooks.md", title: "Webhooks" },
  embedding: { file: "embedding.md", title: "Embedded components" },
} as const;
type PageName = keyof typeof docsPages;

const pageOfFile = new Map<string, PageName>(
  Object.entries(docsPages).map(([name, page]) => [page.file, name as PageName]),
);

/**
 * A guide as HTML: GitHub-flavoured markdown (tables) without raw HTML; numbered headings get ids
 * (`## 19. …` → `section-19`), and links to another guide's file go to its page.
 */
export async function renderGuide(markdown: string): Promise<string> {
  // Loaded on first use: a process that never serves a guide never compiles the markdown parser.
  const [{ micromark }, { gfm, gfmHtml }] = await Promise.all([import("micromark"), import("micromark-extension-gfm")]);
  const html = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return html
    .replace(/<h2>(\d+)\. /g, (_, n: string) => `<h2 id="section-${n}">${n}. `)
    .replace(/href="(?:\.\.\/)?(?:docs\/)?([a-z-]+\.md)(#[^"]*)?"/g, (whole, file: string, hash = "") => {
      const page = pageOfFile.get(file);
      return page ? `href="/docs/${page}${hash}"` : whole;
    });
}

const cache = new Map<PageName, string>();

async function page(name: PageName): Promise<string> {
  const cached = cache.get(name);
  if (cached) return cached;
  const { file, title } = docsPages[name];
  const body = await renderGuide(fs.readFileSync(path.join(process.cwd(), "docs", file), "utf8"));
  const nav = Object.entries(docsPages)
    .map(([n, p]) => `<a href="/docs/${n}"${n === name ? ' aria-current="page"' : ""}>${escapeHtml(p.title)}</a>`)
    .join(" · ");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>
body{font-family:system-ui,sans-serif;line-height:1.55;color:#111827;background:#fff;margin:0}
header,main{max-width:860px;margin:0 auto;padding:16px}
header{border-bottom:1px solid #e5e7eb;font-size:14px}
a{color:#1d4ed8}
a[aria-current]{font-weight:600;color:#111827}
code{background:#f3f4f6;padding:0 3px;border-radius:4px;font-size:90%;overflow-wrap:anywhere}
pre{background:#f3f4f6;padding:12px;overflow-x:auto;border-radius:6px}
pre code{padding:0;overflow-wrap:normal}
table{border-collapse:collapse;display:block;overflow-x:auto}
th,td{border:1px solid #e5e7eb;padding:4px 8px;text-align:left;vertical-align:top}
</style></head>
<body><header><nav aria-label="Guides"><a href="/docs">API reference</a> · ${nav}</nav></header>
<main>${body}</main></body></html>`;
  cache.set(name, html);
  return html;
}

export function docsPagesRoutes(app: OpenAPIHono<AppEnv>) {
  for (const name of Object.keys(docsPages) as PageName[])
    app.get(`/docs/${name}`, async (c) => {
      c.header("Content-Security-Policy", guideCsp);
      c.header("Cache-Control", "public, max-age=300");
      return c.html(await page(name));
    });
}
