import { getDatabase } from "@/lib/db/client";
import { fileContent } from "@/lib/domain/files/create-file";
import { AppError } from "@/lib/errors";
import { routeMerchant } from "@/lib/home/session";
import { fileDownloadHeaders } from "@/lib/serializers/file";

// GET /home/files/{id}: one of the signed-in merchant's own documents (the same bytes and headers
// as GET /v1/files/{id}/contents); another merchant's file, or no session: 404.
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { db } = await getDatabase();
  const merchant = await routeMerchant(db, { components: ["disputes", "payments"] });
  if (!merchant) return new Response("Not found", { status: 404 });
  const { id } = await params;
  try {
    const { row, bytes } = await fileContent(db, { isvAccountId: merchant.isvAccountId, merchantId: merchant.id }, id);
    return new Response(new Uint8Array(bytes), { headers: fileDownloadHeaders(row, bytes.length) });
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found_error")
      return new Response("Not found", { status: 404 });
    throw error;
  }
}
