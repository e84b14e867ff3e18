import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { partnerKeysContract } from '@kisht/domain/contract/partner-keys';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TList = (typeof partnerKeysContract)['list'];
type TCreate = (typeof partnerKeysContract)['create'];
type TRevoke = (typeof partnerKeysContract)['revoke'];

/**
 * The partner API keys (issue 30): the organisation admin's keys a lender's server calls
 * /partner/v1 with, each answered whole only by create.
 * Create and revoke write their answer into the cached list; its tag is session-scoped, so a
 * sign-in drops it (purgeSessionCache).
 */
export const partnerKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The organisation's keys, newest first (never their secrets). */
    listPartnerKeys: build.query<TContractData<TList>, void>({
      query: () => contractRequest<TList>({ path: paths.partnerKeys.keys, method: 'GET' }),
      providesTags: [{ type: 'PartnerKeys', id: 'LIST' }],
    }),
    /** Makes a key; answers its whole text (`apiKey`), which is never answered again. */
    createPartnerKey: build.mutation<TContractData<TCreate>, TContractBody<TCreate>>({
      query: (body) => contractRequest<TCreate>({ path: paths.partnerKeys.keys, method: 'POST' }, { body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data: created } = await queryFulfilled.catch(() => ({ data: null }));
        if (!created) return;
        dispatch(
          partnerKeysApi.util.updateQueryData('listPartnerKeys', undefined, (keys) => {
            keys.unshift(created.key);
          }),
        );
      },
    }),
    /** Revokes a key (by id): its next call answers 401. The revoked key replaces its row. */
    revokePartnerKey: build.mutation<TContractData<TRevoke>, number>({
      query: (id) =>
        contractRequest<TRevoke>(
          { path: paths.partnerKeys.keys, method: 'DELETE' },
          { params: { key_id: id } },
        ),
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        const { data: revoked } = await queryFulfilled.catch(() => ({ data: null }));
        if (!revoked) return;
        dispatch(
          partnerKeysApi.util.updateQueryData('listPartnerKeys', undefined, (keys) => {
            const at = keys.findIndex((key) => key.id === revoked.id);
            if (at !== -1) keys[at] = revoked;
          }),
        );
      },
    }),
  }),
});

export const { useListPartnerKeysQuery, useCreatePartnerKeyMutation, useRevokePartnerKeyMutation } =
  partnerKeysApi;
