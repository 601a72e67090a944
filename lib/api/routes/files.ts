import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";

import { checkSession } from "../../auth/onboarding-session";
import { createFile, fileContent, findFile } from "../../domain/files/create-file";
import { fileScope, type Scope } from "../../domain/scope";
import { AppError, invalidFields, issuesToFieldErrors } from "../../errors";
import { parseMultipart } from "../../files/multipart";
import { createFileFields, type FileJson, filePurposes, fileSchema, fileSubjects } from "../../schemas/files";
import { fileDownloadHeaders, serializeFile } from "../../serializers/file";
import type { AppEnv } from "../context";
import { allow, type Authorized } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

const exampleFile: FileJson = {
  object: "file",
  id: "file_3kP9wQ2zX7mN4vL8rT1yBc",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  purpose: "identity_document",
  subject: "owner_one",
  filename: "drivers-license.jpg",
  size: 482113,
  type: "jpg",
  created_at: 1795370820000,
};

/** The ISV (key or JWT) for its merchants; the merchant's onboarding session for itself. */
const filesCaller = allow({ kinds: ["api_key", "user", "onboarding"], accountTypes: ["isv"] });

/** The caller's file scope; a merchant's session is checked as every use of it is (a newer link ends it). */
async function scopeOf(c: Context<Authorized>): Promise<Scope> {
  const p = c.get("principal");
  if (p.kind === "onboarding") await checkSession(c.get("db"), p, { host: c.req.header("host") });
  return fileScope(p);
}

const uploadRoute = createRoute({
  method: "post",
  path: "/v1/files",
  tags: ["Files"],
  summary: "Upload a document",
  description:
    "`multipart/form-data` with `file`, `purpose`, `merchant_id` (the merchant's own session may leave it out) and `subject` (`owner_one`..`owner_four`; required for an identity document). JPEG, PNG or PDF, recognized from the content (anything else 400 `file_type_unsupported`; an empty file 400 `file_empty`), at most 10 MB (413 `file_too_large`, refused before the rest is read); an image beyond 50 megapixels 400 `image_too_large`, a damaged one 400 `file_unreadable`. Images are stored again without their metadata (EXIF, GPS); PDFs as sent. The bytes are encrypted at rest and served only by `GET /v1/files/{file_id}/contents` to their owner. The same document twice for one merchant: 409 `file_duplicate`.",
  security: [...security.isv, ...security.onboarding],
  middleware: [filesCaller] as const,
  request: {
    body: {
      required: true,
      content: {
        // A plain schema (not zod): documented, not validated by the route's validator; the handler
        // reads the form itself from the bytes the upload guard held to 10 MB.
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file", "purpose"],
            properties: {
              file: { type: "string", format: "binary", description: "JPEG, PNG or PDF; at most 10 MB" },
              purpose: { type: "string", enum: [...filePurposes] },
              merchant_id: {
                type: "string",
                description: "Required for the ISV; a merchant's session may leave it out",
              },
              subject: { type: "string", enum: [...fileSubjects], description: "Required for an identity document" },
            },
          },
        },
      },
    },
  },
  responses: {
    200: { description: "The file", ...jsonContent(fileSchema, exampleFile) },
    ...commonErrors,
    409: conflict409,
    413: { description: "The file is larger than 10 MB (`file_too_large`)" },
  },
});

const getFileRoute = createRoute({
  method: "get",
  path: "/v1/files/{file_id}",
  tags: ["Files"],
  summary: "Get a file's description",
  security: [...security.isv, ...security.onboarding],
  middleware: [filesCaller] as const,
  request: { params: z.object({ file_id: pathId("file_id", exampleFile.id) }) },
  responses: { 200: { description: "The file", ...jsonContent(fileSchema, exampleFile) }, ...commonErrors },
});

const getContentsRoute = createRoute({
  method: "get",
  path: "/v1/files/{file_id}/contents",
  tags: ["Files"],
  summary: "Download a file",
  description: "The bytes as stored (an image without its metadata), as an attachment; never cached.",
  security: [...security.isv, ...security.onboarding],
  middleware: [filesCaller] as const,
  request: { params: z.object({ file_id: pathId("file_id", exampleFile.id) }) },
  responses: {
    200: {
      description: "The file's bytes",
      content: {
        "image/jpeg": { schema: z.string().meta({ format: "binary" }) },
        "image/png": { schema: z.string().meta({ format: "binary" }) },
        "application/pdf": { schema: z.string().meta({ format: "binary" }) },
      },
    },
    ...commonErrors,
  },
});

export function fileRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(uploadRoute, async (c) => {
    const scope = await scopeOf(c);
    // The body was read by the upload guard (lib/api/middleware/body.ts: at most 10 MB, within its
    // deadline); its parts are views into those bytes.
    const raw = Buffer.from(await c.req.arrayBuffer());
    const form = parseMultipart(raw, c.req.header("content-type") ?? "");
    const file = form.files.find((f) => f.field === "file");
    if (!file) throw new AppError("parameter_missing", "file is required", { param: "file" });
    const fields: Record<string, unknown> = { ...form.fields };
    const parsed = createFileFields.safeParse(fields);
    if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues, [], fields));
    const row = await createFile(c.get("db"), scope, { ...parsed.data, filename: file.filename, bytes: file.data });
    return c.json(serializeFile(row), 200);
  });

  app.openapi(getFileRoute, async (c) =>
    c.json(serializeFile(await findFile(c.get("db"), await scopeOf(c), c.req.valid("param").file_id)), 200),
  );

  app.openapi(getContentsRoute, async (c) => {
    const { row, bytes } = await fileContent(c.get("db"), await scopeOf(c), c.req.valid("param").file_id);
    return c.body(new Uint8Array(bytes), 200, fileDownloadHeaders(row, bytes.length));
  });
}
