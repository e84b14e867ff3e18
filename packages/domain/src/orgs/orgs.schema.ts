import { z } from 'zod';

export const ZOrgAppConfigQuery = z.object({ org_id: z.coerce.number().int().positive() });

/** White-label configuration of an organisation (spec §1). */
export const ZOrgAppConfig = z.object({
  orgId: z.number().int(),
  orgName: z.string(),
  companyName: z.string(),
  theme: z.object({ primaryColor: z.string(), secondaryColor: z.string(), logoUrl: z.string().nullable() }),
  mainLayout: z.string(),
  features: z.object({ witnessLayout: z.boolean(), paymentGateway: z.boolean() }),
  aiName: z.string(),
  aiAgentId: z.string(),
});
export type TOrgAppConfig = z.infer<typeof ZOrgAppConfig>;
