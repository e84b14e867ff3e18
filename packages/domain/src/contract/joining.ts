import { z } from 'zod';
import {
  ZDecideSignupRequest,
  ZSignupRequest,
  ZSignupRequestItem,
  ZSignupRequestsQuery,
} from '../joining/joining.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The joining routes of the wire contract (contract/define.ts): join requests and their decision. */
export const joiningContract = defineRoutes({
  /**
   * A shop asks to join the organisation as a retailer (public, rate-limited); null with the
   * thank-you message, also for a mobile that already has an account.
   */
  requestSignup: {
    method: 'POST',
    path: paths.users.signupRequest,
    body: ZSignupRequest,
    response: z.null(),
  },
  /** The organisation's join requests, pending first then newest (organisation admin). */
  listSignupRequests: {
    method: 'GET',
    path: paths.admin.signupRequests,
    query: ZSignupRequestsQuery,
    response: z.array(ZSignupRequestItem),
  },
  /** Approve (creates the retailer, SMS) or decline (SMS) a join request (organisation admin). */
  decideSignup: {
    method: 'POST',
    path: paths.admin.decideSignup,
    body: ZDecideSignupRequest,
    response: ZSignupRequestItem,
  },
});
