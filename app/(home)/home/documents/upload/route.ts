import { createFile } from "@/lib/domain/files/create-file";
import { MAX_FILE_BYTES } from "@/lib/files/inspect";
import { homeRoute } from "@/lib/home/route";
import { readUploadForm } from "@/lib/home/upload-form";

/** Where to send the browser back to, with what happened (a relative Location: the host it came from). */
const back = (to: string, outcome: string) =>
  new Response(null, { status: 303, headers: { Location: `${to}?upload=${outcome}`, "Cache-Control": "no-store" } });

// POST /home/documents/upload: a document a verification check of the signed-in merchant asks for
// (its bank statement after a new bank account), as a plain multipart form that works without
// JavaScript. The same rules as POST /v1/files (recognised, cleaned, encrypted; taken only while a
// check asks for it); the check runs again. Same-origin only: the session cookie is SameSite=Lax and
// the Origin, when sent, must be this host. The home's session (on its ISV's host), never an
// embedded component's; audited as whoever acts in the home (the merchant, or the ISV through its
// login link).
export const POST = homeRoute(
  { sameOrigin: "lax", refused: (error) => back("/home/settings", error.code) },
  async ({ request, db, home, client }) => {
    const form = await readUploadForm(request, client);
    const file = form.files.find((f) => f.field === "file");
    if (!file || file.data.length === 0) return back("/home/settings", "file_empty");
    if (file.data.length > MAX_FILE_BYTES) return back("/home/settings", "file_too_large");
    await createFile(db, home.scope, {
      purpose: "bank_document",
      merchant_id: home.merchant.id,
      filename: file.filename,
      bytes: file.data,
    });
    return back("/home/settings", "done");
  },
);
