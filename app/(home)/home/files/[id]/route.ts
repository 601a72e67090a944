import { getDatabase } from "@/lib/db/client";
import { fileContent } from "@/lib/domain/files/create-file";
import { AppError } from "@/lib/errors";
import { routeAccess } from "@/lib/home/session";
import { fileDownloadHeaders } from "@/lib/serializers/file";

// GET /home/files/{id}: one of the signed-in merchant's own documents (the same bytes and headers
// as GET /v1/files/{id}/contents); another merchant's file, no session, or inside an embedded
// component a file that is not dispute evidence: 404.
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { db } = await getDatabase();
  const found = await routeAccess(db, { components: ["disputes", "payments"] });
  if (!found) return new Response("Not found", { status: 404 });
  const { scope, frame } = found;
  const { id } = await params;
  try {
    const { row, bytes } = await fileContent(db, scope, id);
    // Inside an embedded component (payments, disputes), only what those show: dispute evidence.
    // The merchant's identity, business and bank documents stay in its own home.
    if (frame && row.purpose !== "dispute_evidence") return new Response("Not found", { status: 404 });
    return new Response(new Uint8Array(bytes), { headers: fileDownloadHeaders(row, bytes.length) });
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found_error")
      return new Response("Not found", { status: 404 });
    throw error;
  }
}
