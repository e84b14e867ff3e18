import { z } from 'zod';
import { DEVICE_TYPE_CODES, DeviceType } from '../common/enums';
import { ZId } from '../common/identifiers';

/** What a phone model runs (issue 28): an iPhone is financed as an Apple customer, any other phone as Android. */
export const PRODUCT_PLATFORMS = ['android', 'ios'] as const;
export type TProductPlatform = (typeof PRODUCT_PLATFORMS)[number];

/** The platform a customer of device family `deviceType` (spec §1) must have: ios for Apple (3), else android. */
export const productPlatformOf = (deviceType: number): TProductPlatform =>
  deviceType === DeviceType.APPLE ? 'ios' : 'android';

/** A phone model in the organisation's catalogue. Price in paise. */
export const ZProduct = z.object({
  id: ZId,
  brand: z.string(),
  name: z.string(),
  pricePaise: z.number().int(),
  platform: z.enum(PRODUCT_PLATFORMS),
});
export type TProduct = z.infer<typeof ZProduct>;

/** GET /api/products: the whole catalogue, or with `device_type` only the phones of that family. */
export const ZProductsQuery = z.object({
  device_type: z.coerce
    .number()
    .pipe(z.union(DEVICE_TYPE_CODES.map((code) => z.literal(code))))
    .optional(),
});
export type TProductsQuery = z.input<typeof ZProductsQuery>;

/** A phone brand of the organisation's catalogue (spec §7 brands) and how many of its models it sells. */
export const ZBrand = z.object({ name: z.string(), productCount: z.number().int().positive() });
export type TBrand = z.infer<typeof ZBrand>;
