import { AppError } from "../errors";
import { MAX_FILE_BYTES } from "../files/inspect";
import { type MultipartForm, parseMultipart } from "../files/multipart";
import { asUploadingClient, readUploadBody } from "../files/upload-gate";

/** A form around a 10 MB file: its other fields and boundaries take a few hundred bytes. */
const MAX_FORM_BYTES = MAX_FILE_BYTES + 64 * 1024;

/**
 * The multipart form of one of the home's upload routes, read as POST /v1/files reads its body
 * (lib/files/upload-gate.ts): within the upload's deadline and minimum rate, at most two at once per
 * client address, at most 10 MB of file. Throws the AppError to answer (file_too_large,
 * upload_timeout, rate_limited, invalid_request).
 */
export async function readUploadForm(request: Request, client: string): Promise<MultipartForm> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES)
    throw new AppError("file_too_large", "The file is larger than 10 MB");
  const bytes = await asUploadingClient(`addr:${client}`, () => readUploadBody(request.body, MAX_FORM_BYTES));
  return parseMultipart(bytes, request.headers.get("content-type") ?? "");
}
