import type { Context } from "hono";
import { z } from "zod";

import { renderQrCode } from "../payments/qr";
import { commonErrors } from "./openapi";

// A public QR code's answer (a payment request's pay page, a payment link): its query, its OpenAPI
// responses and the image itself, one for every QR route.

export const qrQuery = z.object({ format: z.enum(["png", "svg"]).optional() });

export const qrResponses = {
  200: {
    description: "The QR code",
    content: {
      "image/png": { schema: z.string().meta({ format: "binary" }) },
      "image/svg+xml": { schema: z.string() },
    },
  },
  400: commonErrors[400],
  404: commonErrors[404],
};

/** The QR code of `url` as PNG (default) or SVG, cacheable for an hour. */
export async function qrAnswer(c: Context, url: string, format: "png" | "svg" | undefined) {
  const qr = await renderQrCode(url, format ?? "png");
  return c.body(qr.body, 200, {
    "Cache-Control": "public, max-age=3600",
    "X-Content-Type-Options": "nosniff",
    "Content-Type": qr.contentType,
  });
}
