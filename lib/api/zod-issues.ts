import type { z } from "zod";
import type { FieldError } from "./errors";

/** Turns zod issues into the contract's field errors, with `param` as the client's full path. */
export function issuesToFieldErrors(issues: z.core.$ZodIssue[], prefix: (string | number)[] = []): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const param = formatPath([...path, key]);
        out.push({ param, code: "parameter_unknown", message: `${param} is not a recognised field` });
      }
      continue;
    }
    const param = formatPath(path);
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    out.push({
      param,
      code: missing ? "parameter_missing" : "parameter_invalid",
      message: missing ? `${param || "body"} is required` : `${param || "body"}: ${issue.message}`,
    });
  }
  return out;
}

export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>((acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), "");
}
