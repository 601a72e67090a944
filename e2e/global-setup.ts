import { buildCliBundle } from "./cli-bundle";

/** Once per run, before the journeys: the CLI they call, compiled (e2e/cli-bundle.ts). */
export default async function globalSetup() {
  await buildCliBundle();
}
