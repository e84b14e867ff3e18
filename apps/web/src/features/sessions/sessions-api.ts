import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TMySessions = (typeof authContract)['mySessions'];
type TLogoutMySession = (typeof authContract)['logoutMySession'];

const SESSIONS_TAG = { type: 'Session', id: 'MINE' } as const;

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's live sessions, newest first. */
    listMySessions: build.query<TContractData<TMySessions>, void>({
      query: () => contractRequest<TMySessions>({ path: paths.sessions.mine, method: 'GET' }),
      providesTags: [SESSIONS_TAG],
    }),
    /** Logs one of my other sessions out; the list is fetched again. */
    logoutMySession: build.mutation<TContractData<TLogoutMySession>, TContractBody<TLogoutMySession>>({
      query: (body) =>
        contractRequest<TLogoutMySession>({ path: paths.sessions.logoutOne, method: 'POST' }, { body }),
      invalidatesTags: [SESSIONS_TAG],
    }),
  }),
});

export const { useListMySessionsQuery, useLogoutMySessionMutation } = sessionsApi;
