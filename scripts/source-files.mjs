// The house's source files for the measuring scripts (import-graph.mjs, architecture-counts.mjs):
// TypeScript outside tests, journeys, the bench, migrations and declaration files, relative to the root.
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

const skip =
  /(^|\/)(node_modules|\.next|tests|e2e|bench|scratch|data|lib\/db\/migrations)(\/|$)|\.(test|spec)\.tsx?$|\.d\.ts$/;

export function sourceFiles() {
  const files = [];
  (function walk(dir) {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.name.startsWith(".") || skip.test(rel)) continue;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|tsx)$/.test(entry.name)) files.push(rel);
    }
  })(".");
  return files;
}
