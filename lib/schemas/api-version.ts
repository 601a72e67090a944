import { z } from "zod";

import { apiVersions, isApiVersion } from "../versions/versions";

/** A version of this API, by date (docs/changelog.md). */
export const apiVersionSchema = z
  .string()
  .refine((v) => isApiVersion(v), `must be a version of this API: ${apiVersions.join(", ")} (/docs/changelog)`)
  .meta({ example: apiVersions[apiVersions.length - 1] });
