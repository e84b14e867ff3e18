import { z } from 'zod';

/** One login session of the current user, as the sessions screen lists it. Times ISO 8601 UTC. */
export const ZSessionInfo = z.object({
  id: z.string().uuid(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  platform: z.string().nullable(),
  browserName: z.string().nullable(),
  browserVersion: z.string().nullable(),
  deviceType: z.string().nullable(),
  devicePlatform: z.string().nullable(),
  /** The user agent string, as sent. */
  userAgent: z.string().nullable(),
  /** True for the session making the request. */
  isCurrent: z.boolean(),
});
export type TSessionInfo = z.infer<typeof ZSessionInfo>;

/** Log out one of my sessions. Another user's session id answers 404. */
export const ZLogoutSessionRequest = z.object({ session_id: z.string().uuid() });
export type TLogoutSessionRequest = z.infer<typeof ZLogoutSessionRequest>;
