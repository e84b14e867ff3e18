import { getParentType } from '../../lib/auth-storage';

/**
 * Whom a node asks for keys and returns them to (issue 30): a mini-retailer its retailer, a retailer
 * or distributor its distributor, or the organisation.
 */
export type TParent = 'retailer' | 'distributor' | 'organisation';

/** The signed-in node's parent, as its session said at sign-in. */
export const signedInParent = (): TParent => getParentType();
