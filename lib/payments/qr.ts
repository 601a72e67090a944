import QRCode from "qrcode";

/** A QR code of `url` as the pay pages and `payment_asset_url` serve it: a 480 px PNG, or SVG. */
export async function renderQrCode(
  url: string,
  format: "png" | "svg",
): Promise<{ body: string | Uint8Array<ArrayBuffer>; contentType: string }> {
  if (format === "svg")
    return {
      body: await QRCode.toString(url, { type: "svg", margin: 2, errorCorrectionLevel: "M" }),
      contentType: "image/svg+xml",
    };
  const png = await QRCode.toBuffer(url, { type: "png", margin: 2, width: 480, errorCorrectionLevel: "M" });
  return { body: new Uint8Array(png), contentType: "image/png" };
}
