import type { TUserType } from '@kisht/domain/common/enums';
import type { organizations, users } from '../db/schema';

/**
 * What the request's one session read brought along with the actor (auth findLiveSession, issue
 * 26): the user's row (access flags among it), the retailer's mini-retailers and the organisation,
 * so no request reads them again. Read fresh with every request, so a change or a revocation shows
 * on the very next one, on every server process.
 */
export type TActorKnown = {
  user: typeof users.$inferSelect;
  /** Ids of the retailer's own mini-retailers (empty for anyone else). */
  childRetailerIds: number[];
  /** The user type of the user's parent (whom it asks for keys), null for the organisation (issue 30). */
  parentType: 'distributor' | 'retailer' | null;
  /** A distributor's whole subtree: the ids of every node below it (empty for anyone else; issue 30). */
  descendantIds: number[];
  organization: typeof organizations.$inferSelect;
};

/** Who is calling: taken from the session, never from the request body (design §4, §6). */
export type TActor = {
  userId: number;
  orgId: number;
  userType: TUserType;
  sessionId: string;
  /**
   * Present on a request's actor (authenticateToken); absent on one a job builds (a scheduled
   * command's creator), whose readers fall back to the database.
   */
  known?: TActorKnown | undefined;
};
