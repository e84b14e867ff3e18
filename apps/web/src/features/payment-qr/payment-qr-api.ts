import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { paymentQrContract } from '@kisht/domain/contract/payment-qr';
import { paths } from '@kisht/domain/paths';
import type { TPaymentQrSettings } from '@kisht/domain/users/payment-qr.schema';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { toUploadBody } from '../../lib/upload-file';

type TGet = (typeof paymentQrContract)['get'];
type TSave = (typeof paymentQrContract)['save'];
type TUploadImage = (typeof paymentQrContract)['uploadImage'];
type TDeleteImage = (typeof paymentQrContract)['deleteImage'];

/**
 * retailer_payment_qr: the signed-in retailer's (or mini-retailer's) own UPI ID, payee name,
 * standing `upi://pay` link and uploaded QR image. Customers get 403. Every mutation answers the
 * new settings, which go straight into the cache.
 */
export const paymentQrApi = api.injectEndpoints({
  endpoints: (build) => {
    const intoCache =
      () =>
      async (
        _request: unknown,
        {
          dispatch,
          queryFulfilled,
        }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: TPaymentQrSettings }> },
      ): Promise<void> => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(paymentQrApi.util.upsertQueryData('getPaymentQr', undefined, data));
      };
    return {
      getPaymentQr: build.query<TContractData<TGet>, void>({
        query: () => contractRequest<TGet>({ path: paths.users.paymentQr, method: 'GET' }),
      }),
      /** Sets the UPI ID and payee name. */
      savePaymentQr: build.mutation<TContractData<TSave>, TContractBody<TSave>>({
        query: (body) => contractRequest<TSave>({ path: paths.users.paymentQr, method: 'PUT' }, { body }),
        onQueryStarted: intoCache(),
      }),
      /** Uploads the shop's own QR image (already compressed, spec §5) as multipart `file`. */
      uploadPaymentQrImage: build.mutation<TContractData<TUploadImage>, File>({
        query: (file) =>
          contractRequest<TUploadImage>(
            { path: paths.users.paymentQrImage, method: 'POST' },
            { body: toUploadBody({}, file) },
          ),
        onQueryStarted: intoCache(),
      }),
      /** Removes the uploaded QR image; customers see the generated QR again. */
      deletePaymentQrImage: build.mutation<TContractData<TDeleteImage>, void>({
        query: () => contractRequest<TDeleteImage>({ path: paths.users.paymentQrImage, method: 'DELETE' }),
        onQueryStarted: intoCache(),
      }),
    };
  },
});

export const {
  useGetPaymentQrQuery,
  useSavePaymentQrMutation,
  useUploadPaymentQrImageMutation,
  useDeletePaymentQrImageMutation,
} = paymentQrApi;
