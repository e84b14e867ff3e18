/** Spec §1: "config shows org id 41". */
const DEFAULT_ORG_ID = 41;

const parseOrgId = (value: string | undefined): number => {
  const orgId = Number(value);
  return Number.isInteger(orgId) && orgId > 0 ? orgId : DEFAULT_ORG_ID;
};

/** The organisation this build is white-labelled for; from VITE_ORG_ID, default 41. */
export const ORG_ID = parseOrgId(import.meta.env.VITE_ORG_ID);

/** API origin. Empty: the API is served from the same origin as the app (design §1). */
export const API_BASE_URL = import.meta.env.VITE_API_BASE_URL ?? '';
