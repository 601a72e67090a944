import { downloadStatement } from "@/lib/domain/statements/download-statement";
import { homeRoute } from "@/lib/home/route";

// GET /home/statements/{statementId}?format=pdf|csv: one of the signed-in merchant's statements
// (the same file as the API's download); without a session, or another merchant's: 404.
export const GET = homeRoute<{ statementId: string }>(
  { access: { components: ["statements"] } },
  async ({ request, params, db, home }) => {
    const format = new URL(request.url).searchParams.get("format") === "csv" ? "csv" : "pdf";
    const file = await downloadStatement(db, home.scope, home.merchant.id, params.statementId, format);
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  },
);
