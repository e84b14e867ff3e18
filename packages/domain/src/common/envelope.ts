import { z } from 'zod';

/**
 * The response envelope of design §3: `{ response, message, data }`. Failures add a stable `code`
 * and, for validation, the failing `fields`.
 */
export const zEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ response: z.literal('success'), message: z.string(), data });

export type TEnvelope<T> = { response: 'success'; message: string; data: T };

export const ZFieldError = z.object({ field: z.string(), message: z.string() });
export type TFieldError = z.infer<typeof ZFieldError>;

export const ZFailure = z.object({
  response: z.literal('failure'),
  message: z.string(),
  code: z.string(),
  fields: z.array(ZFieldError).optional(),
  data: z.null(),
});
export type TFailure = z.infer<typeof ZFailure>;

/** One page of a list: the items, how many there are in all, and the page asked for (1-based). */
export const zPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

/** A calendar date, `YYYY-MM-DD`. */
export const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD');
