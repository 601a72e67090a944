import { requireIsvUser } from "@/lib/dashboard/session";
import { downloadStatement } from "@/lib/domain/statements/download-statement";
import { nullIfNotFound } from "@/lib/errors";

// GET /dashboard/merchants/{id}/statements/{statementId}?format=pdf|csv: the statement for the
// signed-in ISV user (the same file as the API's download).
export async function GET(request: Request, { params }: { params: Promise<{ id: string; statementId: string }> }) {
  const { db, account } = await requireIsvUser("reports:read");
  const { id, statementId } = await params;
  const format = new URL(request.url).searchParams.get("format") === "csv" ? "csv" : "pdf";
  const file = await downloadStatement(db, { isvAccountId: account.id }, id, statementId, format).catch(nullIfNotFound);
  if (!file) return new Response("Not found", { status: 404 });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
