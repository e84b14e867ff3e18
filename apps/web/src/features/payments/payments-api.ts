import { paths } from '@kisht/domain/paths';
import type {
  TCheckoutOrder,
  TCheckoutResult,
  TInstalmentOrderRequest,
  TPaymentOrderStatus,
  TPaymentQuote,
  TPaymentQuoteRequest,
} from '@kisht/domain/payments/payments.schema';
import { api } from '../../lib/http/api';
import { KEY_BALANCES_TAG } from '../../lib/http/tags';

/** A customer user's own loans (the emi feature's getMyLoans provides it). */
const MY_LOANS_TAG = { type: 'Emi', id: 'MINE' } as const;

/**
 * payment_gateway (issue 13 "Payments"): quotes and gateway orders for keys, a customer's order for
 * what is due on their loan, and the checkout's signed callback. A verified payment changes the
 * buyer's key balances, or the customer's loan, so those caches are invalidated.
 */
export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** What keys cost; 409 PRICES_NOT_SET ('Please contact admin for prices') without a price. */
    quoteKeys: build.mutation<TPaymentQuote, TPaymentQuoteRequest>({
      query: (body) => ({ url: paths.payments.validate, method: 'POST', body }),
    }),
    /** A gateway order for keys, to open the checkout with. */
    createKeyOrder: build.mutation<TCheckoutOrder, TPaymentQuoteRequest>({
      query: (body) => ({ url: paths.payments.create, method: 'POST', body }),
    }),
    /** A gateway order for what is due on the customer's own loan. */
    createInstalmentOrder: build.mutation<TCheckoutOrder, TInstalmentOrderRequest>({
      query: (body) => ({ url: paths.payments.instalment, method: 'POST', body }),
    }),
    /** The checkout's success callback: the server checks the signature, then credits or records once. */
    verifyPayment: build.mutation<TPaymentOrderStatus, TCheckoutResult>({
      query: (body) => ({ url: paths.payments.verify, method: 'POST', body }),
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
