import { z } from 'zod';

/** A phone model in the organisation's catalogue. Price in paise. */
export const ZProduct = z.object({
  id: z.number().int(),
  brand: z.string(),
  name: z.string(),
  pricePaise: z.number().int(),
});
export type TProduct = z.infer<typeof ZProduct>;
