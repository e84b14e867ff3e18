import type { TUserType } from '@kisht/domain/common/enums';

/** Who is calling: taken from the session, never from the request body (design §4, §6). */
export type TActor = {
  userId: number;
  orgId: number;
  userType: TUserType;
  sessionId: string;
};
