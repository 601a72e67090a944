import { z } from "zod";

import { reportStatuses, reportTypes } from "./ledger-values";

// Reports (docs/reference.md section 18): a CSV of the ledger for an interval, made by a job.

const YEAR_MS = 366 * 24 * 3600 * 1000;

export const createReportSchema = z
  .object({
    type: z.enum(reportTypes),
    merchant_id: z.string().max(64).optional().meta({ description: "One merchant's (default: all of the ISV's)" }),
    interval: z
      .object({
        start: z.number().int().min(0).meta({ description: "Milliseconds since the epoch (included)" }),
        end: z.number().int().min(0).meta({ description: "Milliseconds since the epoch (excluded)" }),
      })
      .refine((i) => i.start < i.end, { message: "must end after it starts", path: ["end"] })
      .refine((i) => i.end - i.start <= YEAR_MS, { message: "can span at most a year", path: ["end"] }),
  })
  .meta({ id: "CreateReport" });

export const reportSchema = z
  .object({
    object: z.literal("report"),
    id: z.string(),
    type: z.enum(reportTypes),
    merchant_id: z.string().nullable(),
    interval: z.object({ start: z.number().int(), end: z.number().int() }),
    status: z.enum(reportStatuses).meta({ description: "pending → succeeded | failed" }),
    failure_message: z.string().nullable(),
    row_count: z.number().int().nullable().meta({ description: "The CSV's rows (without its header), once made" }),
    created_at: z.number().int(),
    finished_at: z.number().int().nullable(),
  })
  .meta({ id: "Report" });
