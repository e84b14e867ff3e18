import type { TBirthdaysToday } from '@kisht/domain/messages/messages.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';

/** The dashboard's birthday celebration (issue 16, spec §3 `birthdayCelebration`). */
export const birthdaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Whether today (+05:30) is the signed-in user's birthday, and (retailers) their customers
     * born today. Takes no parameters: the server scopes it to the session.
     */
    getBirthdaysToday: build.query<TBirthdaysToday, void>({
      query: () => paths.messages.birthdaysToday,
    }),
  }),
});

export const { useGetBirthdaysTodayQuery } = birthdaysApi;
