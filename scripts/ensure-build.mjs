// `npm start` on a fresh clone: build the pages once if there is no production build yet.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

if (!existsSync(".next/BUILD_ID")) {
  console.log("No production build yet: running `next build` once…");
  const result = spawnSync("npx", ["next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  process.exit(result.status ?? 1);
}
