import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { paymentsContract } from '@kisht/domain/contract/payments';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

/** A customer user's own loans (the emi feature's getMyLoans provides it). */
const MY_LOANS_TAG = { type: 'Emi', id: 'MINE' } as const;

type TValidate = (typeof paymentsContract)['validate'];
type TCreate = (typeof paymentsContract)['create'];
type TInstalment = (typeof paymentsContract)['instalment'];
type TVerify = (typeof paymentsContract)['verify'];

/**
 * payment_gateway (issue 13 "Payments"): quotes and gateway orders for keys, a customer's order for
 * what is due on their loan, and the checkout's signed callback. A verified payment changes the
 * buyer's key balances, or the customer's loan, so those caches are invalidated.
 */
export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** What keys cost; 409 PRICES_NOT_SET ('Please contact admin for prices') without a price. */
    quoteKeys: build.mutation<TContractData<TValidate>, TContractBody<TValidate>>({
      query: (body) =>
        contractRequest<TValidate>({ path: paths.payments.validate, method: 'POST' }, { body }),
    }),
    /** A gateway order for keys, to open the checkout with. */
    createKeyOrder: build.mutation<TContractData<TCreate>, TContractBody<TCreate>>({
      query: (body) => contractRequest<TCreate>({ path: paths.payments.create, method: 'POST' }, { body }),
    }),
    /** A gateway order for what is due on the customer's own loan. */
    createInstalmentOrder: build.mutation<TContractData<TInstalment>, TContractBody<TInstalment>>({
      query: (body) =>
        contractRequest<TInstalment>({ path: paths.payments.instalment, method: 'POST' }, { body }),
    }),
    /** The checkout's success callback: the server checks the signature, then credits or records once. */
    verifyPayment: build.mutation<TContractData<TVerify>, TContractBody<TVerify>>({
      query: (body) => contractRequest<TVerify>({ path: paths.payments.verify, method: 'POST' }, { body }),
      invalidatesTags: (result) =>
        result?.purpose === 'instalment' ? [MY_LOANS_TAG, 'Emi', 'Outstanding'] : [KEY_BALANCES_TAG],
    }),
  }),
});

export const {
  useQuoteKeysMutation,
  useCreateKeyOrderMutation,
  useCreateInstalmentOrderMutation,
  useVerifyPaymentMutation,
} = paymentsApi;
