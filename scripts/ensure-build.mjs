// `npm start` and `npm test`: build the pages when there is no production build of this source yet.
// The build records a fingerprint of what it was built from (every file of the project that is not a
// test, a document or CI's), so a build is reused only while that source is unchanged: a second
// `npm test` on the same tree (CI's PostgreSQL pass) skips two minutes, and a changed page never runs
// from a stale build. `--force` builds whatever the fingerprint says.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";

const stamp = ".next/SOURCE_FINGERPRINT";
// What cannot change the build's output.
const ignored = /^(tests|e2e|docs|bench|\.ci|\.github|scripts|artifacts|reports)\/|\.test\.tsx?$|\.md$|^\.gitignore$/;

function sourceFiles() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  // Not a git checkout (an unpacked archive): no fingerprint, so always build.
  if (listed.status !== 0) return null;
  return listed.stdout
    .split("\0")
    .filter((f) => f && !ignored.test(f) && existsSync(f) && statSync(f).isFile())
    .sort();
}

function fingerprint() {
  const files = sourceFiles();
  if (!files) return null;
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  }
  // Build-time settings that reach the output.
  hash.update(
    `NODE_ENV=production;NEXT_PUBLIC=${Object.keys(process.env)
      .filter((k) => k.startsWith("NEXT_PUBLIC_"))
      .sort()
      .map((k) => `${k}=${process.env[k]}`)
      .join(",")}`,
  );
  return hash.digest("hex");
}

const current = fingerprint();
const built = existsSync(".next/BUILD_ID") && existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : null;
if (!process.argv.includes("--force") && current && built === current) {
  console.log("The production build is of this source: not building again.");
  process.exit(0);
}
console.log(
  existsSync(".next/BUILD_ID")
    ? "The source changed since the last build: running `next build`…"
    : "No production build yet: running `next build`…",
);
const result = spawnSync("npx", ["next", "build"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
if (result.status === 0 && current) writeFileSync(stamp, `${current}\n`);
process.exit(result.status ?? 1);
