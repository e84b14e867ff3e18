import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { devicesContract } from '@kisht/domain/contract/devices';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TGetDeviceSettings = (typeof devicesContract)['getDeviceSettings'];
type TSaveDeviceSettings = (typeof devicesContract)['saveDeviceSettings'];

/** The organisation's one settings record (the organisation comes from the session). */
const DEVICE_SETTINGS_TAG = { type: 'DeviceSettings', id: 'ORG' } as const;

/**
 * device_settings: the organisation's device-control settings (allowed list, offline limit,
 * command expiry, auto-lock ladder). Only a retailer may read or change them; anyone else gets 403.
 */
export const deviceSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDeviceSettings: build.query<TContractData<TGetDeviceSettings>, void>({
      query: () => contractRequest<TGetDeviceSettings>({ path: paths.orgs.deviceSettings, method: 'GET' }),
      providesTags: [DEVICE_SETTINGS_TAG],
    }),
    /** Saves the whole record; the answer is the saved settings, put straight into the cache. */
    saveDeviceSettings: build.mutation<
      TContractData<TSaveDeviceSettings>,
      TContractBody<TSaveDeviceSettings>
    >({
      query: (body) =>
        contractRequest<TSaveDeviceSettings>({ path: paths.orgs.deviceSettings, method: 'PUT' }, { body }),
      onQueryStarted: async (_settings, { dispatch, queryFulfilled }): Promise<void> => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(deviceSettingsApi.util.upsertQueryData('getDeviceSettings', undefined, data));
      },
      // What customer_details offers follows the allowed list.
      invalidatesTags: ['Customer'],
    }),
  }),
});

export const { useGetDeviceSettingsQuery, useSaveDeviceSettingsMutation } = deviceSettingsApi;
