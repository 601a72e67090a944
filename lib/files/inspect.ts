import { AppError } from "../errors";
import { inUploadSlot, withinPixelBudget } from "./upload-gate";

// What an upload is, from its bytes (never its name or declared type), and the bytes we keep:
// images decoded and encoded again without their metadata (EXIF, GPS, comments), refused past a
// pixel budget before they are decoded (a decompression bomb declares its size in its header);
// PDFs kept as sent.

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** 50 megapixels: a phone's photo is 12 to 48; a 30,000 × 30,000 image is 900. */
export const MAX_IMAGE_PIXELS = 50_000_000;

export type FileKind = "jpg" | "png" | "pdf";

/**
 * What an upload is and the bytes to keep, in one of the process's upload slots (given in turn to
 * each `tenant` that waits) and, for an image, within the process's pixel budget.
 */
export function inspectUpload(bytes: Buffer, tenant = "any"): Promise<{ type: FileKind; bytes: Buffer }> {
  return inUploadSlot(tenant, () => inspect(bytes));
}

async function inspect(bytes: Buffer): Promise<{ type: FileKind; bytes: Buffer }> {
  if (bytes.length === 0) throw new AppError("file_empty", "The file is empty", { param: "file" });
  if (bytes.length > MAX_FILE_BYTES) throw new AppError("file_too_large", "The file is larger than 10 MB");
  // Loaded on first use (both): a process that never receives an upload never loads them.
  const { fileTypeFromBuffer } = await import("file-type");
  const detected = await fileTypeFromBuffer(bytes);
  const type: FileKind | null =
    detected?.mime === "image/jpeg"
      ? "jpg"
      : detected?.mime === "image/png"
        ? "png"
        : detected?.mime === "application/pdf"
          ? "pdf"
          : null;
  if (!type)
    throw new AppError(
      "file_type_unsupported",
      "The file must be a JPEG or PNG photo or scan, or a PDF (recognised from its content)",
      { param: "file" },
    );
  if (type === "pdf") return { type, bytes };
  const { default: sharp } = await import("sharp");
  let width = 0;
  let height = 0;
  try {
    // The header only (no pixel is decoded): the size it declares is judged below.
    ({ width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    throw new AppError("file_unreadable", "The image cannot be read: it may be damaged", { param: "file" });
  }
  if (width * height > MAX_IMAGE_PIXELS)
    throw new AppError(
      "image_too_large",
      `The image is ${width} × ${height} pixels: at most 50 megapixels (a phone's photo is well within)`,
      { param: "file" },
    );
  try {
    // rotate(): the EXIF orientation applied to the pixels, since the EXIF itself is dropped.
    const cleaned = await withinPixelBudget(width * height, () => {
      const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).rotate();
      return (type === "jpg" ? image.jpeg({ quality: 92 }) : image.png()).toBuffer();
    });
    return { type, bytes: cleaned };
  } catch {
    throw new AppError("file_unreadable", "The image cannot be read: it may be damaged or cut short", {
      param: "file",
    });
  }
}
