import type {
  TAdvertisement,
  TAdvertisementSendProgress,
  TSendAdvertisementRequest,
} from '@kisht/domain/advertisements/advertisements.schema';
import type { TBulkPreview } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { toUploadBody } from '../../lib/upload-file';

/** What compose saves: a title, a text and an optional image (already compressed, spec §5). */
export type TComposeAd = { title: string; text: string; image: File | null };

/**
 * send_advertisement (issue 16): the actor's ads, the one the app shows, composing one
 * (`/upload/update_retailer_ad`), sending it to customers' phones and following the send.
 */
export const advertisementsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAdvertisements: build.query<TAdvertisement[], void>({
      query: () => paths.advertisements.list,
    }),
    /** The ad the app shows: own newest, or (a customer) their retailer's newest; null for none. */
    getCurrentAdvertisement: build.query<TAdvertisement | null, void>({
      query: () => paths.advertisements.current,
    }),
    createAdvertisement: build.mutation<TAdvertisement, TComposeAd>({
      query: ({ title, text, image }) => {
        const body = image ? toUploadBody({ title, text }, image) : new FormData();
        if (!image) {
          body.append('title', title);
          body.append('text', text);
        }
        return { url: paths.advertisements.upload, method: 'POST', body };
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
      TBulkPreview,
      { advertisementId: number; filter: 'all_enrolled' | 'overdue' }
    >({
      query: ({ advertisementId, filter }) => ({
        url: paths.advertisements.sendPreview,
        params: { advertisement_id: advertisementId, filter },
      }),
    }),
    sendAdvertisement: build.mutation<TAdvertisementSendProgress, TSendAdvertisementRequest>({
      query: (body) => ({ url: paths.advertisements.send, method: 'POST', body }),
    }),
    getAdvertisementSend: build.query<TAdvertisementSendProgress, string>({
      query: (sendId) => ({ url: paths.advertisements.sendStatus, params: { send_id: sendId } }),
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
