import type { autopayContract } from '@kisht/domain/contract/autopay';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TGet = (typeof autopayContract)['get'];
type TSetUp = (typeof autopayContract)['setUp'];
type TCancel = (typeof autopayContract)['cancel'];
type TInstalmentQr = (typeof autopayContract)['instalmentQr'];

const customerTag = (customerId: number) => ({ type: 'Autopay', id: customerId }) as const;

/**
 * UPI AutoPay (issue 29): a customer's mandate, set up and cancelled, and a one-off UPI QR for the
 * instalment due. Tags by customer id.
 */
export const autopayApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The customer's mandate with its charges, or null when none was set up. */
    getMandate: build.query<TContractData<TGet>, number>({
      query: (customerId) =>
        contractRequest<TGet>(
          { path: paths.autopay.mandate, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
    /** Sets up AutoPay: answers the mandate with the authorisation link the customer's UPI app opens. */
    setUpMandate: build.mutation<TContractData<TSetUp>, TContractBody<TSetUp>>({
      query: (body) => contractRequest<TSetUp>({ path: paths.autopay.mandate, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, body) => [customerTag(body.customer_id)],
    }),
    /** Cancels the customer's AutoPay (at the gateway too). */
    cancelMandate: build.mutation<TContractData<TCancel>, number>({
      query: (customerId) =>
        contractRequest<TCancel>(
          { path: paths.autopay.mandate, method: 'DELETE' },
          { params: { customer_id: customerId } },
        ),
      invalidatesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
    /**
     * A single-use gateway UPI QR for the customer's oldest unpaid instalment. Nothing cached
     * changes until it is paid (the gateway's webhook records that), so it invalidates no tags.
     */
    createInstalmentQr: build.mutation<TContractData<TInstalmentQr>, TContractBody<TInstalmentQr>>({
      query: (body) =>
        contractRequest<TInstalmentQr>({ path: paths.autopay.instalmentQr, method: 'POST' }, { body }),
    }),
  }),
});

export const {
  useGetMandateQuery,
  useSetUpMandateMutation,
  useCancelMandateMutation,
  useCreateInstalmentQrMutation,
} = autopayApi;
