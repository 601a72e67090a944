import { getLocale } from "next-intl/server";

import { requireIsvUser } from "@/lib/dashboard/session";
import { downloadResidual } from "@/lib/domain/residuals/download-residual";
import { nullIfNotFound } from "@/lib/errors";
import { toLocale } from "@/lib/i18n/locales";

// GET /dashboard/residuals/{id}/download?format=pdf|csv: a residual's file for the signed-in ISV user
// (the bytes of GET /v1/residuals/{id}/download; the PDF in the reader's language); another ISV's
// residual is 404.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { db, account } = await requireIsvUser("reports:read");
  const { id } = await params;
  const url = new URL(request.url);
  const format = url.searchParams.get("format") === "csv" ? "csv" : "pdf";
  const locale = toLocale(await getLocale());
  const file = await downloadResidual(db, account.id, id, format, locale).catch(nullIfNotFound);
  if (!file) return new Response("Not found", { status: 404 });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
