import { z } from 'zod';
import { ZId, ZMobile } from '../common/identifiers';
import { JOINING_ROLES } from '../network/network.rules';

const REQUIRED = 'This is a required field';

/** A required text field of the join form: trimmed, not empty, at most `max` characters. */
const requiredText = (max: number) =>
  z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max, `At most ${max} characters`);

/**
 * The join form a shop fills on the login screen (issue 13 "Joining"): the owner's name, the
 * shop's name, the shop's mobile (10 digits, sent with +91; stored E.164) and its city. Issue 30:
 * it joins as a retailer (the default) or a distributor, under the organisation or under the
 * distributor whose mobile it gives (`parentMobile`), who then decides (network.rules mayJoinUnder).
 */
export const ZSignupRequestForm = z.object({
  name: requiredText(80),
  shopName: requiredText(120),
  mobile: ZMobile,
  city: requiredText(80),
  role: z.enum(JOINING_ROLES, { error: 'Choose retailer or distributor' }).default('retailer'),
  /** The parent distributor's mobile; absent or empty: the organisation. */
  parentMobile: z.union([z.literal('').transform(() => undefined), ZMobile]).optional(),
});
export type TSignupRequestForm = z.input<typeof ZSignupRequestForm>;

/**
 * POST /api/user/signup_request (public, spec §7): the join form and the organisation it is for
 * (chosen by the caller, as on the other public auth routes). Answers null with the message
 * SIGNUP_REQUESTED_MESSAGE.
 */
export const ZSignupRequest = ZSignupRequestForm.extend({ orgId: ZId });
export type TSignupRequest = z.input<typeof ZSignupRequest>;

/** The answer to a join request (also when the mobile already has an account: nothing is revealed). */
export const SIGNUP_REQUESTED_MESSAGE = 'Thank you. We will call you once your request is approved.';

/** Where a join request stands: waiting for the admin, or decided. */
export const SIGNUP_STATUSES = ['pending', 'approved', 'declined'] as const;
export type TSignupStatus = (typeof SIGNUP_STATUSES)[number];

/** GET /api/admin/signup_requests query: one status, or all (the default). */
export const ZSignupRequestsQuery = z.object({
  status: z.enum([...SIGNUP_STATUSES, 'all']).default('all'),
});
export type TSignupRequestsQuery = z.input<typeof ZSignupRequestsQuery>;

/** One join request as its parent (the organisation admin, a distributor) sees it. Times are ISO-8601 UTC. */
export const ZSignupRequestItem = z.object({
  id: ZId,
  name: z.string(),
  shopName: z.string(),
  mobile: z.string(),
  city: z.string(),
  status: z.enum(SIGNUP_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The retailer or distributor created on approval; null otherwise. */
  userId: ZId.nullable(),
  /** What it joins as (issue 30). */
  role: z.enum(JOINING_ROLES),
});
export type TSignupRequestItem = z.infer<typeof ZSignupRequestItem>;

/** POST /api/admin/signup_requests/decide: approve (creates the retailer or distributor, SMS) or decline (SMS). */
export const ZDecideSignupRequest = z.object({
  id: ZId,
  decision: z.enum(['approve', 'decline']),
});
export type TDecideSignupRequest = z.input<typeof ZDecideSignupRequest>;
