// `npx tsx scripts/openapi-dump.ts > file`: the OpenAPI document of this checkout, built in this
// process (no server or database), to compare a refactoring's before and after byte for byte.
import type { DatabaseHandle } from "@/lib/db/types";

process.env.LOG_LEVEL ??= "silent";
const { createApi } = await import("@/lib/api/app");
// The document route reads no database: the handle is never touched.
const res = await createApi({ handle: {} as DatabaseHandle }).request("/v1/openapi.json");
if (res.status !== 200) throw new Error(`GET /v1/openapi.json: ${res.status}`);
process.stdout.write(await res.text());
