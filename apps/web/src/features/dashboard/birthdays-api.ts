import type { TContractData } from '@kisht/domain/contract/define';
import type { messagesContract } from '@kisht/domain/contract/messages';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TBirthdaysToday = (typeof messagesContract)['birthdaysToday'];

/** The dashboard's birthday celebration (issue 16, spec §3 `birthdayCelebration`). */
export const birthdaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Whether today (+05:30) is the signed-in user's birthday, and (retailers) their customers
     * born today. Takes no parameters: the server scopes it to the session.
     */
    getBirthdaysToday: build.query<TContractData<TBirthdaysToday>, void>({
      query: () => contractRequest<TBirthdaysToday>({ path: paths.messages.birthdaysToday, method: 'GET' }),
    }),
  }),
});

export const { useGetBirthdaysTodayQuery } = birthdaysApi;
