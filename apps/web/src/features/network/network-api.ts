import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { networkContract } from '@kisht/domain/contract/network';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { KEY_BALANCES_TAG, NETWORK_TAG } from '../../lib/http/tags';

type TList = (typeof networkContract)['list'];
type TSaveSettings = (typeof networkContract)['saveSettings'];

/**
 * The distribution network (issue 30): the nodes below the signed-in parent (or below one node of
 * its subtree) with their key stock, and the organisation's distributor levels (admin). Keys moved
 * anywhere (KEY_BALANCES_TAG) or a node joined (NETWORK_TAG) fetch the lists again.
 */
export const networkApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The children of `parentId` (undefined: of the signed-in parent itself). */
    getNetwork: build.query<TContractData<TList>, number | undefined>({
      query: (parentId) =>
        contractRequest<TList>(
          { path: paths.network.list, method: 'GET' },
          { params: parentId === undefined ? {} : { parent_id: parentId } },
        ),
      providesTags: [NETWORK_TAG, KEY_BALANCES_TAG],
    }),
    /** Sets how many distributor levels the organisation has (organisation admin). */
    saveNetworkSettings: build.mutation<TContractData<TSaveSettings>, TContractBody<TSaveSettings>>({
      query: (body) =>
        contractRequest<TSaveSettings>({ path: paths.network.settings, method: 'PUT' }, { body }),
      invalidatesTags: (result) => (result ? [NETWORK_TAG] : []),
    }),
  }),
});

export const { useGetNetworkQuery, useSaveNetworkSettingsMutation } = networkApi;
