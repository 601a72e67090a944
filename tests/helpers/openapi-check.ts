import fs from "node:fs";

import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

// Every /v1 answer an API test receives is checked against the OpenAPI document the server
// publishes (GET /v1/openapi.json): a documented operation, a documented status, and a body that
// its schema accepts. Errors are checked against the contract's Error shape whatever the status.

type Doc = {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
};

export type ResponseChecker = (
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  json: unknown,
) => void;

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * The document the server publishes, read once per run: the first file to ask fetches it and keeps
 * it where tests/global-setup.ts says (TEST_OPENAPI_DOC), and the files after it read that copy
 * instead of each making its server build the document again (zod-to-openapi, about 0.3 s of CPU
 * a file). Every file's server is the same code, so each would publish the same paths and schemas.
 */
async function publishedDocument(baseUrl: string): Promise<Doc> {
  const kept = process.env.TEST_OPENAPI_DOC;
  if (kept && fs.existsSync(kept)) return JSON.parse(fs.readFileSync(kept, "utf8")) as Doc;
  const text = await (await fetch(`${baseUrl}/v1/openapi.json`)).text();
  if (kept) {
    // Written whole or not at all: a file starting beside this one reads either nothing or all of it.
    const partial = `${kept}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, kept);
  }
  return JSON.parse(text) as Doc;
}

export async function responseChecker(baseUrl: string): Promise<ResponseChecker> {
  const doc = await publishedDocument(baseUrl);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc as object, "api");
  const validators = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let v = validators.get(ref);
    if (!v) validators.set(ref, (v = ajv.compile({ $ref: ref })));
    return v;
  };
  // Templates with fewer parameters win (/v1/onboarding/session over /v1/onboarding/{x}).
  const templates = Object.keys(doc.paths)
    .map((t) => ({
      t,
      params: (t.match(/\{/g) ?? []).length,
      re: new RegExp(`^${t.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }))
    .sort((a, b) => a.params - b.params);

  return (method, url, status, contentType, json) => {
    const path = new URL(url, "http://x").pathname;
    // /v1/_*: routes a test file adds to the app for itself (never part of the product).
    if (!path.startsWith("/v1/") || path.startsWith("/v1/_") || path === "/v1/openapi.json") return;
    if (!contentType?.includes("application/json")) {
      if (status >= 400) throw new Error(`${method} ${path} answered ${status} without a JSON error body`);
      return;
    }
    const where = `${method} ${path} → ${status}`;
    if (status >= 400) {
      const check = validator("api#/components/schemas/Error");
      if (!check(json))
        throw new Error(
          `${where}: the error body does not match the Error schema: ${ajv.errorsText(check.errors)}\n${JSON.stringify(json)}`,
        );
      return;
    }
    const template = templates.find((t) => t.re.test(path))?.t;
    const operation = template ? doc.paths[template]![method.toLowerCase()] : undefined;
    if (!template || !operation) throw new Error(`${where}: no operation in the OpenAPI document (document it)`);
    const response = operation.responses?.[String(status)];
    if (!response) throw new Error(`${where}: status not documented for ${method} ${template}`);
    if (!response.content?.["application/json"]) throw new Error(`${where}: the document says no JSON body`);
    const check = validator(
      `api#/${pointer("paths", template, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}`,
    );
    if (!check(json))
      throw new Error(
        `${where}: the body does not match the documented schema: ${ajv.errorsText(check.errors)}\n${JSON.stringify(json).slice(0, 2000)}`,
      );
  };
}
