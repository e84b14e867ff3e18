import type { appleMdmContract } from '@kisht/domain/contract/apple-mdm';
import type { TContractBody, TContractData, TGroupRoute } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { commandHistoryTag, customerTag } from '../../lib/http/tags';

type TAppleDetailsRoute = (typeof appleMdmContract)['details'];
type TAppleCommandRoute = TGroupRoute<(typeof appleMdmContract)['command']>;

/** One Apple customer's MDM details (apple_details, apple_sync). */
const appleDetailsTag = (customerId: number) => ({ type: 'AppleDetails', id: customerId }) as const;

/** The Apple commands of apple_details and apple_sync (issue 15; spec §7 /micromdm). */
export const APPLE_COMMANDS = ['requestSync', 'installOneModeApp', 'disableActivationLock'] as const;
export type TAppleCommand = (typeof APPLE_COMMANDS)[number];

/** Everything an Apple command changes: the details, the history and the customer's summary. */
const invalidatedByCommand = (customerId: number) => [
  appleDetailsTag(customerId),
  commandHistoryTag(customerId),
  customerTag(customerId),
];

/** An Apple command's request: its route's path, the customer in the body. */
const appleCommand = (path: TAppleCommandRoute['path'], body: TContractBody<TAppleCommandRoute>) =>
  contractRequest<TAppleCommandRoute>({ path, method: 'POST' }, { body });

/**
 * An iPhone through NanoMDM (issue 15): what it reported (apple_details) and the commands a person
 * sends from apple_details and apple_sync. Each command answers the command row (TDeviceCommand),
 * whose later states come through the command history.
 */
export const appleApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** apple_details: what the iPhone last reported, its enrolment and its newest sync. Key: the customer. */
    getAppleDetails: build.query<TContractData<TAppleDetailsRoute>, number>({
      query: (customerId) =>
        contractRequest<TAppleDetailsRoute>(
          { path: paths.apple.details, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [appleDetailsTag(customerId)],
    }),
    /** apple_request_sync: ask the iPhone for its DeviceInformation (apple_sync, CHECK_STATUS). */
    requestAppleSync: build.mutation<TContractData<TAppleCommandRoute>, TContractBody<TAppleCommandRoute>>({
      query: (body) => appleCommand(paths.apple.requestSync, body),
      invalidatesTags: (_result, _error, { customer_id }) => invalidatedByCommand(customer_id),
    }),
    /** installAppleOneModeApp: install the Kisht one-mode app on the iPhone (InstallApplication). */
    installAppleOneModeApp: build.mutation<
      TContractData<TAppleCommandRoute>,
      TContractBody<TAppleCommandRoute>
    >({
      query: (body) => appleCommand(paths.apple.installOneModeApp, body),
      invalidatesTags: (_result, _error, { customer_id }) => invalidatedByCommand(customer_id),
    }),
    /** disable_activation_lock: fetch the Activation Lock bypass code (a supervised iPhone's). */
    disableActivationLock: build.mutation<
      TContractData<TAppleCommandRoute>,
      TContractBody<TAppleCommandRoute>
    >({
      query: (body) => appleCommand(paths.apple.disableActivationLock, body),
      invalidatesTags: (_result, _error, { customer_id }) => invalidatedByCommand(customer_id),
    }),
  }),
});

export const {
  useGetAppleDetailsQuery,
  useRequestAppleSyncMutation,
  useInstallAppleOneModeAppMutation,
  useDisableActivationLockMutation,
} = appleApi;
