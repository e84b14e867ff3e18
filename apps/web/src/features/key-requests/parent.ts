import { getUserType } from '../../lib/auth-storage';

/** Whom a shop asks for keys and returns them to: a mini-retailer its retailer, a retailer its organisation. */
export type TParent = 'retailer' | 'organisation';

/** The signed-in shop's parent (a mini-retailer's is its retailer; anyone else's the organisation). */
export const signedInParent = (): TParent => (getUserType() === 'miniretailer' ? 'retailer' : 'organisation');
