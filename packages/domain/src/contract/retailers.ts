import { paths } from '../paths';
import {
  ZAddRetailerRequest,
  ZRetailer,
  ZRetailerIdQuery,
  ZRetailerListQuery,
  ZRetailerPage,
  ZRetailerProfile,
  ZUpdateOwnProfileRequest,
  ZUpdateRetailerRequest,
  ZUserImageQuery,
} from '../retailers/retailers.schema';
import { defineRoutes } from './define';

/**
 * The retailer network routes of the wire contract (contract/define.ts; issue 13): retailer_list,
 * add_retailer, retailer_profile and the users' own images. Session required.
 */
export const retailersContract = defineRoutes({
  /** Add a mini-retailer under the signed-in retailer (retailers only). */
  add: { method: 'POST', path: paths.retailers.add, body: ZAddRetailerRequest, response: ZRetailer },
  /** The signed-in retailer's mini-retailers, a page, newest first, with customer counts (retailers only). */
  list: { method: 'GET', path: paths.retailers.list, query: ZRetailerListQuery, response: ZRetailerPage },
  /** Edit a mini-retailer's details or access, deactivate or reactivate it (its parent only). */
  update: { method: 'POST', path: paths.retailers.update, body: ZUpdateRetailerRequest, response: ZRetailer },
  /** A mini-retailer of the signed-in retailer (or the signed-in user) by user_id. */
  readById: { method: 'GET', path: paths.retailers.readById, query: ZRetailerIdQuery, response: ZRetailer },
  /** The signed-in user's own profile. */
  profile: { method: 'GET', path: paths.retailers.profile, response: ZRetailerProfile },
  /** Set or clear the signed-in user's own date of birth (issue 16). */
  updateOwnProfile: {
    method: 'POST',
    path: paths.retailers.updateOwnProfile,
    body: ZUpdateOwnProfileRequest,
    response: ZRetailerProfile,
  },
  /**
   * Upload a profile image (multipart: user_id?, then `file`; JPEG, PNG or WebP): the signed-in
   * user's own, or a mini-retailer's by its parent.
   */
  profileImage: { method: 'POST', path: paths.users.profileImage, body: 'multipart', response: ZRetailer },
  /** Upload the signed-in user's own signature (multipart `file`, PNG). */
  signature: { method: 'POST', path: paths.users.signature, body: 'multipart', response: ZRetailer },
  /** A profile image, signature or payment QR image's bytes: the signed-in user's, or a mini-retailer's. */
  image: { method: 'GET', path: paths.users.image, query: ZUserImageQuery, response: 'file' },
});
