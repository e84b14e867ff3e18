import type { TSignupRequest } from '@kisht/domain/joining/joining.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';

/** Joining (issue 13): a shop that is not yet a retailer asks to join, from the login screen. */
export const joiningApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Public; answers null with the thank-you message (also for a mobile that has an account). */
    requestSignup: build.mutation<null, TSignupRequest>({
      query: (body) => ({ url: paths.users.signupRequest, method: 'POST', body }),
    }),
  }),
});

export const { useRequestSignupMutation } = joiningApi;
