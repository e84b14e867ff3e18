import { z } from 'zod';
import { ZId } from '../common/identifiers';

/** A country of the country-state-city data: ISO 3166-1 alpha-2 code, name, dialling code. */
export const ZCountry = z.object({ code: z.string(), name: z.string(), phoneCode: z.string() });
export type TCountry = z.infer<typeof ZCountry>;

/** A state or province: its ISO 3166-2 subdivision code (without the country) and name. */
export const ZState = z.object({ code: z.string(), name: z.string() });
export type TState = z.infer<typeof ZState>;

export const ZCity = z.object({ name: z.string() });
export type TCity = z.infer<typeof ZCity>;

export const ZStatesQuery = z.object({
  country: z.string().regex(/^[A-Z]{2}$/, 'Country is a 2-letter code'),
});
export const ZCitiesQuery = ZStatesQuery.extend({ state: z.string().trim().min(1).max(10) });

/** A financer of the organisation (financer_list). */
export const ZFinancer = z.object({ id: ZId, name: z.string() });
export type TFinancer = z.infer<typeof ZFinancer>;
