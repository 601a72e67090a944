import { attachEvidenceFile } from "@/lib/domain/disputes/save-evidence";
import { httpStatusOf } from "@/lib/errors";
import { MAX_FILE_BYTES } from "@/lib/files/inspect";
import { homeRoute } from "@/lib/home/route";
import { readUploadForm } from "@/lib/home/upload-form";
import { evidenceFileFields } from "@/lib/schemas/disputes";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
const refused = (status: number, code: string, message: string, param = "file") =>
  json(status, { ok: false, errors: [{ param, code, message }] });

// POST /home/disputes/{id}/evidence-file: one file of the signed-in merchant's answer to a dispute
// (`field`: receipt, customer_communication or uncategorized_file), sent by the dispute page as the
// merchant picks it (lib/domain/disputes/save-evidence.ts attachEvidenceFile). Same-origin only;
// a refusal answers its status (lib/errors.ts) and says why, by the file's field.
export const POST = homeRoute<{ disputeId: string }>(
  {
    access: { components: ["disputes", "payments"], feature: "dispute_management" },
    sameOrigin: "required",
    refused: (error) => refused(httpStatusOf(error), error.code, error.message),
  },
  async ({ request, params, db, home, client }) => {
    const form = await readUploadForm(request, client);
    const field = String(form.fields.field ?? "") as (typeof evidenceFileFields)[number];
    if (!evidenceFileFields.includes(field)) return refused(400, "parameter_invalid", "Unknown field", "field");
    const file = form.files.find((f) => f.field === "file");
    if (!file || file.data.length === 0) return refused(400, "file_empty", "The file is empty");
    if (file.data.length > MAX_FILE_BYTES) return refused(413, "file_too_large", "The file is larger than 10 MB");
    const { file: saved, dispute } = await attachEvidenceFile(db, home.scope, params.disputeId, field, {
      filename: file.filename,
      bytes: file.data,
    });
    return json(200, {
      ok: true,
      file: { id: saved.id, filename: saved.filename },
      dispute: { status: dispute.status, evidence: dispute.evidence },
    });
  },
);
