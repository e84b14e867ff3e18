import type { advertisementsContract } from '@kisht/domain/contract/advertisements';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { toUploadBody } from '../../lib/upload-file';

type TList = (typeof advertisementsContract)['list'];
type TCurrent = (typeof advertisementsContract)['current'];
type TUpload = (typeof advertisementsContract)['upload'];
type TSendPreview = (typeof advertisementsContract)['sendPreview'];
type TSend = (typeof advertisementsContract)['send'];
type TSendStatus = (typeof advertisementsContract)['sendStatus'];

/** What compose saves: a title, a text and an optional image (already compressed, spec §5). */
export type TComposeAd = { title: string; text: string; image: File | null };

/**
 * send_advertisement (issue 16): the actor's ads, the one the app shows, composing one
 * (`/upload/update_retailer_ad`), sending it to customers' phones and following the send.
 */
export const advertisementsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAdvertisements: build.query<TContractData<TList>, void>({
      query: () => contractRequest<TList>({ path: paths.advertisements.list, method: 'GET' }),
    }),
    /** The ad the app shows: own newest, or (a customer) their retailer's newest; null for none. */
    getCurrentAdvertisement: build.query<TContractData<TCurrent>, void>({
      query: () => contractRequest<TCurrent>({ path: paths.advertisements.current, method: 'GET' }),
    }),
    createAdvertisement: build.mutation<TContractData<TUpload>, TComposeAd>({
      query: ({ title, text, image }) => {
        const body = image ? toUploadBody({ title, text }, image) : new FormData();
        if (!image) {
          body.append('title', title);
          body.append('text', text);
        }
        return contractRequest<TUpload>({ path: paths.advertisements.upload, method: 'POST' }, { body });
      },
      // The new ad is the actor's newest: the one the dashboard shows from now on.
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data)
          dispatch(advertisementsApi.util.upsertQueryData('getCurrentAdvertisement', undefined, data));
      },
    }),
    /** How many phones a filter would reach (chosen customers are counted here). */
    getAdvertisementSendPreview: build.query<
      TContractData<TSendPreview>,
      { advertisementId: number; filter: 'all_enrolled' | 'overdue' }
    >({
      query: ({ advertisementId, filter }) =>
        contractRequest<TSendPreview>(
          { path: paths.advertisements.sendPreview, method: 'GET' },
          { params: { advertisement_id: advertisementId, filter } },
        ),
    }),
    sendAdvertisement: build.mutation<TContractData<TSend>, TContractBody<TSend>>({
      query: (body) => contractRequest<TSend>({ path: paths.advertisements.send, method: 'POST' }, { body }),
    }),
    getAdvertisementSend: build.query<TContractData<TSendStatus>, string>({
      query: (sendId) =>
        contractRequest<TSendStatus>(
          { path: paths.advertisements.sendStatus, method: 'GET' },
          { params: { send_id: sendId } },
        ),
    }),
  }),
});

export const {
  useListAdvertisementsQuery,
  useGetCurrentAdvertisementQuery,
  useCreateAdvertisementMutation,
  useGetAdvertisementSendPreviewQuery,
  useSendAdvertisementMutation,
  useGetAdvertisementSendQuery,
} = advertisementsApi;
