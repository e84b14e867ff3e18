import type { catalogueContract } from '@kisht/domain/contract/catalogue';
import type { TContractBody, TContractData, TContractQuery } from '@kisht/domain/contract/define';
import type { retailersContract } from '@kisht/domain/contract/retailers';
import { paths } from '@kisht/domain/paths';
import type { TRetailerStatusFilter } from '@kisht/domain/retailers/retailers.schema';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { toUploadBody } from '../../lib/upload-file';

/** Rows per page of retailer_list (each page the infinite scroll loads). */
export const RETAILER_PAGE_SIZE = 20;

/** What retailer_list is filtered by; each filter is its own cached list of loaded pages. */
export type TRetailerListArgs = { search: string; status: TRetailerStatusFilter };

const LIST_TAG = { type: 'Retailer', id: 'LIST' } as const;
const ME_TAG = { type: 'Retailer', id: 'ME' } as const;
const retailerTag = (id: number) => ({ type: 'Retailer', id }) as const;
/** The place lists change only with a release: kept a day. */
const PLACE_CACHE_SECONDS = 86_400;

type TList = (typeof retailersContract)['list'];
type TReadById = (typeof retailersContract)['readById'];
type TProfile = (typeof retailersContract)['profile'];
type TUpdateOwnProfile = (typeof retailersContract)['updateOwnProfile'];
type TAdd = (typeof retailersContract)['add'];
type TUpdate = (typeof retailersContract)['update'];
type TProfileImage = (typeof retailersContract)['profileImage'];
type TSignature = (typeof retailersContract)['signature'];
type TCountries = (typeof catalogueContract)['countries'];
type TStates = (typeof catalogueContract)['states'];
type TCities = (typeof catalogueContract)['cities'];

/**
 * The retailer network (retailer_list, add_retailer, retailer_profile): a retailer's mini-retailers,
 * the signed-in user's own profile, profile images and the own signature. Every change answers the
 * new TRetailer; the lists and that retailer's entries are refetched.
 */
export const retailersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** retailer_list page by page (infinite scroll); the cache key is the filter. */
    listRetailers: build.infiniteQuery<TContractData<TList>, TRetailerListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) =>
          lastPage.page * lastPage.pageSize < lastPage.total ? lastPage.page + 1 : undefined,
      },
      query: ({ queryArg: { search, status }, pageParam }) =>
        contractRequest<TList>(
          { path: paths.retailers.list, method: 'GET' },
          {
            params: { page: pageParam, pageSize: RETAILER_PAGE_SIZE, status, ...(search ? { search } : {}) },
          },
        ),
      providesTags: (result) => [
        LIST_TAG,
        ...(result?.pages.flatMap((page) => page.items.map((item) => retailerTag(item.id))) ?? []),
      ],
    }),
    /** A mini-retailer of the signed-in retailer (readById); the cache key is its user id. */
    getRetailer: build.query<TContractData<TReadById>, number>({
      query: (userId) =>
        contractRequest<TReadById>(
          { path: paths.retailers.readById, method: 'GET' },
          { params: { user_id: userId } },
        ),
      providesTags: (_result, _error, userId) => [retailerTag(userId)],
    }),
    /** The signed-in user's own profile (getRetailerProfile). */
    getOwnProfile: build.query<TContractData<TProfile>, void>({
      query: () => contractRequest<TProfile>({ path: paths.retailers.profile, method: 'GET' }),
      providesTags: [ME_TAG],
    }),
    /** The signed-in user's own date of birth (issue 16: the dashboard's birthday celebration). */
    updateOwnProfile: build.mutation<TContractData<TUpdateOwnProfile>, TContractBody<TUpdateOwnProfile>>({
      query: (body) =>
        contractRequest<TUpdateOwnProfile>(
          { path: paths.retailers.updateOwnProfile, method: 'POST' },
          { body },
        ),
      invalidatesTags: [ME_TAG],
    }),
    addRetailer: build.mutation<TContractData<TAdd>, TContractBody<TAdd>>({
      query: (body) => contractRequest<TAdd>({ path: paths.retailers.add, method: 'POST' }, { body }),
      invalidatesTags: [LIST_TAG],
    }),
    /** Details, access flags, deactivate (`isActive: false`) or reactivate. */
    updateRetailer: build.mutation<TContractData<TUpdate>, TContractBody<TUpdate>>({
      query: (body) => contractRequest<TUpdate>({ path: paths.retailers.update, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, body) => [LIST_TAG, retailerTag(body.user_id)],
    }),
    /** The profile image (compressed per spec §5 before): own without userId, else a mini-retailer's. */
    uploadProfileImage: build.mutation<
      TContractData<TProfileImage>,
      { userId?: number | undefined; file: File }
    >({
      query: ({ userId, file }) =>
        contractRequest<TProfileImage>(
          { path: paths.users.profileImage, method: 'POST' },
          { body: toUploadBody(userId === undefined ? {} : { user_id: userId }, file) },
        ),
      invalidatesTags: (_result, _error, { userId }) =>
        userId === undefined ? [ME_TAG] : [LIST_TAG, retailerTag(userId)],
    }),
    /** The signed-in user's own signature, a PNG from the signature pad. */
    uploadOwnSignature: build.mutation<TContractData<TSignature>, File>({
      query: (file) =>
        contractRequest<TSignature>(
          { path: paths.users.signature, method: 'POST' },
          { body: toUploadBody({}, file) },
        ),
      invalidatesTags: [ME_TAG],
    }),
    retailerCountries: build.query<TContractData<TCountries>, void>({
      query: () => contractRequest<TCountries>({ path: paths.catalogue.countries, method: 'GET' }),
      keepUnusedDataFor: PLACE_CACHE_SECONDS,
    }),
    retailerStates: build.query<TContractData<TStates>, TContractQuery<TStates>>({
      query: ({ country }) =>
        contractRequest<TStates>({ path: paths.catalogue.states, method: 'GET' }, { params: { country } }),
      keepUnusedDataFor: PLACE_CACHE_SECONDS,
    }),
    retailerCities: build.query<TContractData<TCities>, TContractQuery<TCities>>({
      query: ({ country, state }) =>
        contractRequest<TCities>(
          { path: paths.catalogue.cities, method: 'GET' },
          { params: { country, state } },
        ),
      keepUnusedDataFor: PLACE_CACHE_SECONDS,
    }),
  }),
});

export const {
  useListRetailersInfiniteQuery,
  useGetRetailerQuery,
  useGetOwnProfileQuery,
  useAddRetailerMutation,
  useUpdateRetailerMutation,
  useUpdateOwnProfileMutation,
  useUploadProfileImageMutation,
  useUploadOwnSignatureMutation,
  useRetailerCountriesQuery,
  useRetailerStatesQuery,
  useRetailerCitiesQuery,
} = retailersApi;
