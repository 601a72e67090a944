import { recentPaymentsSignature } from "@/lib/domain/home/overview";
import { homeRoute } from "@/lib/home/route";

// GET /home/recent: the fingerprint of the signed-in merchant's latest payments, which the home's
// pages poll (React Query) to render again when a payment arrives or changes. No session: 404.
export const GET = homeRoute({ access: { components: ["payments"] } }, async ({ db, home }) =>
  Response.json(
    { signature: await recentPaymentsSignature(db, home.merchant.id) },
    { headers: { "Cache-Control": "private, no-store" } },
  ),
);
