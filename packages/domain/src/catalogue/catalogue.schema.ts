import { z } from 'zod';
import { ZId } from '../common/identifiers';

/** A phone model in the organisation's catalogue. Price in paise. */
export const ZProduct = z.object({
  id: ZId,
  brand: z.string(),
  name: z.string(),
  pricePaise: z.number().int(),
});
export type TProduct = z.infer<typeof ZProduct>;

/** A phone brand of the organisation's catalogue (spec §7 brands) and how many of its models it sells. */
export const ZBrand = z.object({ name: z.string(), productCount: z.number().int().positive() });
export type TBrand = z.infer<typeof ZBrand>;
