import { asActor } from "@/lib/audit/actor";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { createFile } from "@/lib/domain/files/create-file";
import { AppError } from "@/lib/errors";
import { MAX_FILE_BYTES } from "@/lib/files/inspect";
import { type MultipartForm } from "@/lib/files/multipart";
import { isSameOrigin } from "@/lib/home/same-origin";
import { homeActor, routeAccess } from "@/lib/home/session";
import { readUploadForm } from "@/lib/home/upload-form";
import { log } from "@/lib/log";

/** Where to send the browser back to, with what happened (a relative Location: the host it came from). */
const back = (to: string, outcome: string) =>
  new Response(null, { status: 303, headers: { Location: `${to}?upload=${outcome}`, "Cache-Control": "no-store" } });

// POST /home/documents/upload: a document a verification check of the signed-in merchant asks for
// (its bank statement after a new bank account), as a plain multipart form that works without
// JavaScript. The same rules as POST /v1/files (recognised, cleaned, encrypted; taken only while a
// check asks for it); the check runs again. Same-origin only: the session cookie is SameSite=Lax and
// the Origin, when sent, must be this host.
export async function POST(request: Request) {
  if (!isSameOrigin(request, false)) return new Response("Forbidden", { status: 403 });
  const { db } = await getDatabase();
  // The home's session (on its ISV's host), never an embedded component's.
  const home = await routeAccess(db);
  if (!home) return new Response("Not found", { status: 404 });
  const { merchant, scope } = home;
  let form: MultipartForm;
  try {
    form = await readUploadForm(request, request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
  } catch (error) {
    if (error instanceof AppError) return back("/home/settings", error.code);
    throw error;
  }
  const file = form.files.find((f) => f.field === "file");
  if (!file || file.data.length === 0) return back("/home/settings", "file_empty");
  if (file.data.length > MAX_FILE_BYTES) return back("/home/settings", "file_too_large");
  try {
    // Audited as whoever acts in the home: the merchant, or the ISV through its login link.
    const actor = homeActor(home, request.headers.get(CLIENT_ADDRESS_HEADER));
    await asActor(actor, () =>
      createFile(db, scope, {
        purpose: "bank_document",
        merchant_id: merchant.id,
        filename: file.filename,
        bytes: file.data,
      }),
    );
  } catch (error) {
    if (error instanceof AppError && error.isClientError) return back("/home/settings", error.code);
    log.error({ err: error }, "home document upload failed");
    throw error;
  }
  return back("/home/settings", "done");
}
