import { z } from "zod";

/** List query parameters of docs/reference.md section 3. */
export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1, "must be from 1 to 100").max(100, "must be from 1 to 100").default(10),
  starting_after: z.string().max(64).optional(),
  ending_before: z.string().max(64).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const listEnvelope = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ object: z.literal("list"), data: z.array(item), has_more: z.boolean(), url: z.string() }).meta({ id });

export function toList<T>(data: T[], hasMore: boolean, url: string) {
  return { object: "list" as const, data, has_more: hasMore, url };
}
