import { paths } from '@kisht/domain/paths';
import type { TPaymentQrSettings, TSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import { api } from '../../lib/http/api';

/**
 * retailer_payment_qr: the signed-in retailer's (or mini-retailer's) own UPI ID, payee name and
 * standing `upi://pay` link. Customers get 403.
 */
export const paymentQrApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentQr: build.query<TPaymentQrSettings, void>({
      query: () => paths.users.paymentQr,
    }),
    /** Sets the UPI ID; the answer (with the new link) goes straight into the cache. */
    savePaymentQr: build.mutation<TPaymentQrSettings, TSavePaymentQrRequest>({
      query: (body) => ({ url: paths.users.paymentQr, method: 'PUT', body }),
      onQueryStarted: async (_request, { dispatch, queryFulfilled }): Promise<void> => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(paymentQrApi.util.upsertQueryData('getPaymentQr', undefined, data));
      },
    }),
  }),
});

export const { useGetPaymentQrQuery, useSavePaymentQrMutation } = paymentQrApi;
