import { buildCliBundle } from "../scripts/cli-bundle";

/** Once per run, before the journeys: the CLI they call, compiled (scripts/cli-bundle.ts). */
export default async function globalSetup() {
  await buildCliBundle("e2e");
}
