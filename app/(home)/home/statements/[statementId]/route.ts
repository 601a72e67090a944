import { getDatabase } from "@/lib/db/client";
import { downloadStatement } from "@/lib/domain/statements/download-statement";
import { AppError } from "@/lib/errors";
import { routeAccess } from "@/lib/home/session";

// GET /home/statements/{statementId}?format=pdf|csv: one of the signed-in merchant's statements
// (the same file as the API's download); without a session, or another merchant's: 404.
export async function GET(request: Request, { params }: { params: Promise<{ statementId: string }> }) {
  const { db } = await getDatabase();
  const home = await routeAccess(db, { components: ["statements"] });
  if (!home) return new Response("Not found", { status: 404 });
  const { merchant, scope } = home;
  const { statementId } = await params;
  const format = new URL(request.url).searchParams.get("format") === "csv" ? "csv" : "pdf";
  try {
    const file = await downloadStatement(db, scope, merchant.id, statementId, format);
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found_error")
      return new Response("Not found", { status: 404 });
    throw error;
  }
}
