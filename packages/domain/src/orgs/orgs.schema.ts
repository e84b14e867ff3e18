import { z } from 'zod';
import { ZId, ZQueryId } from '../common/identifiers';

export const ZOrgAppConfigQuery = z.object({ org_id: ZQueryId });

/** Main layouts an organisation can choose (spec §1: theme, main layout and some pages per organisation). */
export const MAIN_LAYOUTS = ['default', 'compact'] as const;
/** What opening an inactive customer does (spec §2): go to customer_navigate, or warn 'Customer is Inactive'. */
export const INACTIVE_CUSTOMER_ACTIONS = ['navigate', 'warn'] as const;

/**
 * White-label configuration of an organisation (spec §1), public so the app can theme its login.
 * The spec lists: id, backend base URL, org name, company name, theme, main layout, page choices,
 * feature flags (off by default), AI name and agent id (empty).
 */
export const ZOrgAppConfig = z.object({
  orgId: ZId,
  /** Base URL of this organisation's API; '' means the app's own origin. */
  apiBaseUrl: z.string(),
  orgName: z.string(),
  companyName: z.string(),
  theme: z.object({ primaryColor: z.string(), secondaryColor: z.string(), logoUrl: z.string().nullable() }),
  mainLayout: z.enum(MAIN_LAYOUTS),
  /** Per-organisation page choices, by page. */
  pages: z.object({
    /** Dashboard variant: status cards, or a compact list. */
    dashboard: z.enum(['cards', 'list']),
    /** Opening an inactive customer (spec §2). */
    inactiveCustomer: z.enum(INACTIVE_CUSTOMER_ACTIONS),
  }),
  features: z.object({ witnessLayout: z.boolean(), paymentGateway: z.boolean() }),
  aiName: z.string(),
  aiAgentId: z.string(),
});
export type TOrgAppConfig = z.infer<typeof ZOrgAppConfig>;

/**
 * App-wide client configuration (spec §7 client contract, design §3): what the client needs to
 * build its headers and time its calls. Public; nothing here is a security secret.
 */
export const ZAppConfig = z.object({
  /** The fixed secret of the request token (spec §7). */
  requestTokenSecret: z.string(),
  /** Accepted clock skew of the auth-session header, seconds. */
  authSessionWindowSeconds: z.number().int(),
  /** Seconds before another OTP may be requested. */
  otpResendAfterSeconds: z.number().int(),
  /** Default cache lifetime of API data, seconds (spec §7: 300). */
  defaultCacheSeconds: z.number().int(),
  /** Cache lifetime of plans, seconds (spec §7: 5). */
  plansCacheSeconds: z.number().int(),
  /** True when Sign in with Google is configured (the login page shows its button); absent: off. */
  googleSignIn: z.boolean().optional(),
});
export type TAppConfig = z.infer<typeof ZAppConfig>;
