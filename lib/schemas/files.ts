import { z } from "zod";

import { ownerKeys } from "./vocabulary";

// Files (docs/reference.md, files): a merchant's documents, by what they are for.
export const filePurposes = [
  "identity_document",
  "business_document",
  "bank_document",
  "dispute_evidence",
  "additional_verification",
] as const;
export type FilePurpose = (typeof filePurposes)[number];

/** Whom a document is about: one of the owners (an identity document names one). */
export const fileSubjects = ownerKeys;

export const fileSchema = z
  .object({
    object: z.literal("file"),
    id: z.string(),
    merchant_id: z.string(),
    purpose: z.enum(filePurposes),
    subject: z.enum(fileSubjects).nullable(),
    filename: z.string(),
    size: z.number().int().meta({ description: "Bytes, as stored (an image without its metadata)" }),
    type: z.enum(["jpg", "png", "pdf"]),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "File" });
export type FileJson = z.infer<typeof fileSchema>;

export const createFileFields = z.strictObject({
  purpose: z.enum(filePurposes),
  merchant_id: z.string().min(1).max(64).optional(),
  subject: z.enum(fileSubjects).optional(),
});
