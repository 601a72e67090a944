import { getDatabase } from "@/lib/db/client";
import { recentPaymentsSignature } from "@/lib/domain/home/overview";
import { routeMerchant } from "@/lib/home/session";

// GET /home/recent: the fingerprint of the signed-in merchant's latest payments, which the home's
// pages poll (React Query) to render again when a payment arrives or changes. No session: 404.
export async function GET() {
  const { db } = await getDatabase();
  const merchant = await routeMerchant(db, { components: ["payments"] });
  if (!merchant) return Response.json({ error: "not_found" }, { status: 404 });
  return Response.json(
    { signature: await recentPaymentsSignature(db, merchant.id) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
