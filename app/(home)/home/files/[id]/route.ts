import { fileContent } from "@/lib/domain/files/create-file";
import { homeRoute } from "@/lib/home/route";
import { fileDownloadHeaders } from "@/lib/serializers/file";

// GET /home/files/{id}: one of the signed-in merchant's own documents (the same bytes and headers
// as GET /v1/files/{id}/contents); another merchant's file, no session, or inside an embedded
// component a file that is not dispute evidence: 404.
export const GET = homeRoute<{ id: string }>(
  { access: { components: ["disputes", "payments"] } },
  async ({ params, db, home }) => {
    const { row, bytes } = await fileContent(db, home.scope, params.id);
    // Inside an embedded component (payments, disputes), only what those show: dispute evidence.
    // The merchant's identity, business and bank documents stay in its own home.
    if (home.frame && row.purpose !== "dispute_evidence") return new Response("Not found", { status: 404 });
    return new Response(new Uint8Array(bytes), { headers: fileDownloadHeaders(row, bytes.length) });
  },
);
