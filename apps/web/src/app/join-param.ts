/** The login page's query parameter that opens the join request at once (`/login?join=1`). */
export const JOIN_PARAM = 'join';
