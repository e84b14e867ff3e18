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
