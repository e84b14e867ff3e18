/**
 * The default access flags (spec §6), apart from the schemas in devices.schema.ts (which re-exports
 * them) so that the web app reads them without loading zod (issue 17).
 */

/** Default user access flags, spec §6 ('1' allowed, '0' denied); server values override them. */
export const DEFAULT_USER_ACCESS = {
  feature_access: '1',
  lock_unlock: '1',
  unistall: '1',
  active_deactive: '1',
  bulk_retailer: '0',
} as const;
/** Default lock access flags, spec §6. */
export const DEFAULT_LOCK_ACCESS = { lock: '1', unlock: '1', read: '1', uninstall: '1' } as const;
