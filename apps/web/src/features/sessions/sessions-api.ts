import { paths } from '@kisht/domain/paths';
import type { TLogoutSessionRequest, TSessionInfo } from '@kisht/domain/sessions/sessions.schema';
import { api } from '../../lib/http/api';

const SESSIONS_TAG = { type: 'Session', id: 'MINE' } as const;

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's live sessions, newest first. */
    listMySessions: build.query<TSessionInfo[], void>({
      query: () => paths.sessions.mine,
      providesTags: [SESSIONS_TAG],
    }),
    /** Logs one of my other sessions out; the list is fetched again. */
    logoutMySession: build.mutation<null, TLogoutSessionRequest>({
      query: (body) => ({ url: paths.sessions.logoutOne, method: 'POST', body }),
      invalidatesTags: [SESSIONS_TAG],
    }),
  }),
});

export const { useListMySessionsQuery, useLogoutMySessionMutation } = sessionsApi;
