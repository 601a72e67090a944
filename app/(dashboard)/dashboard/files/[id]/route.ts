import { requireIsvUser } from "@/lib/dashboard/session";
import { fileContent } from "@/lib/domain/files/create-file";
import { nullIfNotFound } from "@/lib/errors";
import { fileDownloadHeaders } from "@/lib/serializers/file";

// GET /dashboard/files/{id}: a merchant's document for the signed-in ISV user (the same bytes and
// headers as GET /v1/files/{id}/contents; another ISV's file is 404).
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { db, account } = await requireIsvUser("files:read");
  const { id } = await params;
  const found = await fileContent(db, { isvAccountId: account.id }, id).catch(nullIfNotFound);
  if (!found) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(found.bytes), { headers: fileDownloadHeaders(found.row, found.bytes.length) });
}
