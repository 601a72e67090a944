import { createHash } from "node:crypto";
import path from "node:path";

import { must } from "./must";

// The browser scripts the server hands out itself (the embedded components' loader and first frame
// page, the tokenizer's frame), bundled from TypeScript once per process and kept in memory, with an
// ETag of their content.

const entries = {
  loader: "embed/loader.ts",
  bootstrap: "embed/bootstrap-script.ts",
  tokenizer: "tokenizer/frame-script.ts",
} as const;
const bundles = new Map<keyof typeof entries, Promise<{ code: string; etag: string }>>();

export function bundleScript(name: keyof typeof entries) {
  let made = bundles.get(name);
  if (!made) {
    made = import("esbuild")
      .then((esbuild) =>
        esbuild.build({
          entryPoints: [path.join(import.meta.dirname, entries[name])],
          bundle: true,
          minify: true,
          format: "iife",
          target: "es2020",
          platform: "browser",
          write: false,
          legalComments: "none",
        }),
      )
      .then((result) => {
        const code = must(result.outputFiles[0], "esbuild's output").text;
        return { code, etag: `"${createHash("sha256").update(code).digest("base64url").slice(0, 22)}"` };
      })
      .catch((error: unknown) => {
        bundles.delete(name);
        throw error;
      });
    bundles.set(name, made);
  }
  return made;
}
