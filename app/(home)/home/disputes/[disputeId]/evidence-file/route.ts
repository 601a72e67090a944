import { asActor } from "@/lib/audit/actor";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { attachEvidenceFile } from "@/lib/domain/disputes/save-evidence";
import { AppError } from "@/lib/errors";
import { MAX_FILE_BYTES } from "@/lib/files/inspect";
import { type MultipartForm } from "@/lib/files/multipart";
import { isSameOrigin } from "@/lib/home/same-origin";
import { homeActor, routeAccess } from "@/lib/home/session";
import { readUploadForm } from "@/lib/home/upload-form";
import { log } from "@/lib/log";
import { evidenceFileFields } from "@/lib/schemas/disputes";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
const refused = (status: number, code: string, message: string) =>
  json(status, { ok: false, errors: [{ param: "file", code, message }] });

// POST /home/disputes/{id}/evidence-file: one file of the signed-in merchant's answer to a dispute
// (`field`: receipt, customer_communication or uncategorized_file), sent by the dispute page as the
// merchant picks it (lib/domain/disputes/disputes.ts attachEvidenceFile). Same-origin only.
export async function POST(request: Request, { params }: { params: Promise<{ disputeId: string }> }) {
  if (!isSameOrigin(request, true)) return new Response("Forbidden", { status: 403 });
  const { db } = await getDatabase();
  const home = await routeAccess(db, { components: ["disputes", "payments"], feature: "dispute_management" });
  if (!home) return new Response("Not found", { status: 404 });
  const { scope } = home;
  const { disputeId } = await params;
  let form: MultipartForm;
  try {
    form = await readUploadForm(request, request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const status = { file_too_large: 413, upload_timeout: 408, rate_limited: 429 }[error.code as string] ?? 400;
    return refused(status, error.code, error.message);
  }
  const field = String(form.fields.field ?? "") as (typeof evidenceFileFields)[number];
  if (!evidenceFileFields.includes(field))
    return json(400, { ok: false, errors: [{ param: "field", code: "parameter_invalid", message: "Unknown field" }] });
  const file = form.files.find((f) => f.field === "file");
  if (!file || file.data.length === 0) return refused(400, "file_empty", "The file is empty");
  if (file.data.length > MAX_FILE_BYTES) return refused(413, "file_too_large", "The file is larger than 10 MB");
  const actor = homeActor(home, request.headers.get(CLIENT_ADDRESS_HEADER));
  try {
    return await asActor(actor, async () => {
      const { file: saved, dispute } = await attachEvidenceFile(db, scope, disputeId, field, {
        filename: file.filename,
        bytes: file.data,
      });
      return json(200, {
        ok: true,
        file: { id: saved.id, filename: saved.filename },
        dispute: { status: dispute.status, evidence: dispute.evidence },
      });
    });
  } catch (error) {
    if (error instanceof AppError && error.isClientError)
      return json(error.type === "not_found_error" ? 404 : error.code === "invalid_state" ? 409 : 400, {
        ok: false,
        errors: [{ param: "file", code: error.code, message: error.message }],
      });
    log.error({ err: error }, "dispute evidence upload failed");
    throw error;
  }
}
