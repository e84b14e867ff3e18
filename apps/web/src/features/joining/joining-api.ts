import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { joiningContract } from '@kisht/domain/contract/joining';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TRequestSignup = (typeof joiningContract)['requestSignup'];

/** Joining (issue 13): a shop that is not yet a retailer asks to join, from the login screen. */
export const joiningApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Public; answers null with the thank-you message (also for a mobile that has an account). */
    requestSignup: build.mutation<TContractData<TRequestSignup>, TContractBody<TRequestSignup>>({
      query: (body) =>
        contractRequest<TRequestSignup>({ path: paths.users.signupRequest, method: 'POST' }, { body }),
    }),
  }),
});

export const { useRequestSignupMutation } = joiningApi;
