import type { TControlFeature } from '@kisht/domain/common/enums';
import type {
  TContractBody,
  TContractData,
  TContractQuery,
  TGroupRoute,
} from '@kisht/domain/contract/define';
import type { devicesContract } from '@kisht/domain/contract/devices';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import type { TApiError } from '../../lib/http/base-query';
import { contractRequest } from '../../lib/http/contract-request';
import { READABLE_OFFLINE } from '../../lib/http/offline-reads';
import { CUSTOMER_LIST_TAG, commandHistoryTag, customerTag, PENDING_COMMANDS_TAG } from '../../lib/http/tags';
import { isBatchSettled, mergeBulkProgress } from './device-controls';

type TLock = (typeof devicesContract)['lock'];
type TUnlock = (typeof devicesContract)['unlock'];
/** The generic control route of a feature (`/api/device/{feature}`): one contract for every feature. */
type TControl = TGroupRoute<(typeof devicesContract)['control']>;
type THistory = (typeof devicesContract)['history'];
type TCancel = (typeof devicesContract)['cancel'];
type TOfflineCommandLog = (typeof devicesContract)['offlineCommandLog'];
type TScheduledCommands = (typeof devicesContract)['scheduledCommands'];
type TChangeDevicePin = (typeof devicesContract)['changeDevicePin'];
type TBulkLockUnlock = (typeof devicesContract)['bulkLockUnlock'];
type TBulkPreview = (typeof devicesContract)['bulkPreview'];
type TBulkProgressRoute = (typeof devicesContract)['bulkProgress'];
type TSendOtpToUser = (typeof devicesContract)['sendOtpToUser'];
type TOfflineLockUnlock = (typeof devicesContract)['offlineLockUnlock'];
type TUninstall = (typeof devicesContract)['uninstall'];
type TUnclaim = (typeof devicesContract)['unclaim'];
type TSimChanges = (typeof devicesContract)['simChanges'];
type TSimChangeDetails = (typeof devicesContract)['simChangeDetails'];
type TQrCode = (typeof devicesContract)['qrCode'];

/** A batch's progress (bulkProgress's answer, the first answer of bulkLockUnlock too). */
type TBulkProgress = TContractData<TBulkProgressRoute>;

/** What getBulkProgress's queryFn gives RTK Query: the merged progress, or the call's error. */
type TBulkProgressResult =
  | { data: TBulkProgress; error?: undefined }
  | { error: TApiError; data?: undefined };

/** SIM changes shown on one sim_changes page. */
export const SIM_CHANGES_PAGE_SIZE = 20;

/** One page of sim_changes; both values go to the API, so both are in the cache key. */
export type TSimChangesArgs = { page: number; pageSize: number };

const SIM_CHANGE_LIST_TAG = { type: 'SimChange', id: 'LIST' } as const;
const simChangeTag = (customerId: number) => ({ type: 'SimChange', id: customerId }) as const;

/** A control feature's command for one customer's phone (POST /api/device/{feature}). */
export type TSendControlArgs = { feature: TControlFeature; body: TContractBody<TControl> };

/** The two lists of pending_commands: commands waiting for an offline phone, or for their run_at. */
export const PENDING_COMMAND_LISTS = ['offline', 'scheduled'] as const;
export type TPendingCommandList = (typeof PENDING_COMMAND_LISTS)[number];
/** A command of either list, with whose phone it is (TOfflineCommand and TScheduledCommand are one shape). */
export type TPendingCommand =
  | TContractData<TOfflineCommandLog>[number]
  | TContractData<TScheduledCommands>[number];
const pendingListTag = (list: TPendingCommandList) => ({ type: PENDING_COMMANDS_TAG, id: list }) as const;

/**
 * The phone's side of the app: the enrolment QR (customer_navigate), lock and unlock and the
 * control features of spec §6 with their history (customer_details), multiple_lock_unlock (a bulk
 * lock or unlock and its progress), pending_commands, sim_changes, offline codes, the phone PIN and
 * uninstall.
 */
export const deviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Lock the phone now, or at `run_at` (a scheduled command, listed on pending_commands). */
    lockDevice: build.mutation<TContractData<TLock>, TContractBody<TLock>>({
      query: (body) => contractRequest<TLock>({ path: paths.devices.lock, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        PENDING_COMMANDS_TAG,
      ],
    }),
    /** Unlock the phone now, or at `run_at`. */
    unlockDevice: build.mutation<TContractData<TUnlock>, TContractBody<TUnlock>>({
      query: (body) => contractRequest<TUnlock>({ path: paths.devices.unlock, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        PENDING_COMMANDS_TAG,
      ],
    }),
    /**
     * customer_navigate's enrolment QR. Each call issues a fresh one-time enrolment token, so it is
     * never refetched behind the user's back.
     */
    getEnrolmentQr: build.query<TContractData<TQrCode>, number>({
      query: (customerId) =>
        contractRequest<TQrCode>(
          { path: paths.customers.qrCode, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      keepUnusedDataFor: 0,
    }),
    /** Every command sent to the customer's phone, newest first. The cache key is the customer. */
    getCommandHistory: build.query<TContractData<THistory>, number>({
      query: (customerId) =>
        contractRequest<THistory>(
          { path: paths.devices.history, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [commandHistoryTag(customerId)],
      // Shown on customer_details' device and actions tabs, which read offline (issue 28).
      extraOptions: READABLE_OFFLINE,
    }),
    /**
     * A toggle turned on or off, or an action run: the device summary (reported and pending
     * controls) and the history change.
     */
    sendDeviceControl: build.mutation<TContractData<TControl>, TSendControlArgs>({
      query: ({ feature, body }) =>
        contractRequest<TControl>({ path: deviceControlPath(feature), method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { body }) => [
        customerTag(body.customer_id),
        commandHistoryTag(body.customer_id),
        PENDING_COMMANDS_TAG,
      ],
    }),
    /**
     * Cancels a command still on its way or waiting for its run_at; a cancelled lock or unlock
     * changes the list's "Locking…", and the command leaves pending_commands.
     */
    cancelCommand: build.mutation<TContractData<TCancel>, TContractBody<TCancel>>({
      query: (body) => contractRequest<TCancel>({ path: paths.devices.cancel, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        PENDING_COMMANDS_TAG,
      ],
    }),
    /**
     * pending_commands: the organisation's commands waiting for a phone that is offline (oldest
     * first), or waiting for their run_at (soonest first). The cache key is the list.
     */
    getPendingCommands: build.query<TPendingCommand[], TPendingCommandList>({
      query: (list) =>
        list === 'offline'
          ? contractRequest<TOfflineCommandLog>({ path: paths.devices.offlineCommandLog, method: 'GET' })
          : contractRequest<TScheduledCommands>({ path: paths.devices.scheduledCommands, method: 'GET' }),
      providesTags: (_result, _error, list) => [pendingListTag(list)],
    }),
    /**
     * change_device_pinV1: a new screen-lock PIN for the customer's phone, after an OTP of purpose
     * BYPASS_CODE. The PIN is sealed for the phone by the server; it never comes back.
     */
    changeDevicePin: build.mutation<TContractData<TChangeDevicePin>, TContractBody<TChangeDevicePin>>({
      query: (body) =>
        contractRequest<TChangeDevicePin>({ path: paths.devices.changeDevicePin, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        PENDING_COMMANDS_TAG,
      ],
    }),
    /** multiple_device_lock_unlock: one command per phone, answered with the batch's first progress. */
    bulkLockUnlock: build.mutation<TContractData<TBulkLockUnlock>, TContractBody<TBulkLockUnlock>>({
      query: (body) =>
        contractRequest<TBulkLockUnlock>({ path: paths.devices.bulkLockUnlock, method: 'POST' }, { body }),
      // Every customer's lock status may change; details screens refetch when next opened.
      invalidatesTags: ['Customer', 'CommandHistory', PENDING_COMMANDS_TAG],
      // The answer is the batch's first progress: the progress screen starts from it.
      onQueryStarted: async (_request, { dispatch, queryFulfilled }): Promise<void> => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(deviceApi.util.upsertQueryData('getBulkProgress', data.batchId, data));
      },
    }),
    /**
     * How many phones a bulk request with this filter would reach (nothing is sent); asked when the
     * confirmation opens. The cache key is the action and the filter.
     */
    getBulkPreview: build.query<TContractData<TBulkPreview>, TContractQuery<TBulkPreview>>({
      query: (params) =>
        contractRequest<TBulkPreview>({ path: paths.devices.bulkPreview, method: 'GET' }, { params }),
      keepUnusedDataFor: 0,
    }),
    /**
     * A batch's progress; polled while its commands are on their way. The cache key is the batch.
     * A poll after the first asks only for the items changed since the cached answer (its cursor)
     * and merges them in (mergeBulkProgress), so a batch of thousands is not sent whole each time;
     * once the batch has ended, every item is read once more.
     */
    getBulkProgress: build.query<TBulkProgress, string>({
      queryFn: async (batchId, query, _extra, baseQuery): Promise<TBulkProgressResult> => {
        const selectKnown = deviceApi.endpoints.getBulkProgress.select(batchId) as unknown as (
          state: unknown,
        ) => { data?: TBulkProgress };
        const known: TBulkProgress | undefined = selectKnown(query.getState()).data;
        const result = await baseQuery(
          contractRequest<TBulkProgressRoute>(
            { path: paths.devices.bulkProgress, method: 'GET' },
            { params: known ? { batch_id: batchId, since: known.cursor } : { batch_id: batchId } },
          ),
        );
        if (result.error) return { error: result.error };
        const answer = result.data as TBulkProgress;
        if (!answer.isChangesOnly || !isBatchSettled(answer))
          return { data: mergeBulkProgress(known, answer) };
        // The batch has ended: every item once more, so the last list is exact whatever a poll missed.
        const whole = await baseQuery(
          contractRequest<TBulkProgressRoute>(
            { path: paths.devices.bulkProgress, method: 'GET' },
            { params: { batch_id: batchId } },
          ),
        );
        return whole.error ? { error: whole.error } : { data: whole.data as TBulkProgress };
      },
      keepUnusedDataFor: 0,
    }),
    /**
     * send-otp-to-user: an OTP to the signed-in user's own mobile before a sensitive device
     * action (BYPASS_CODE for an offline code, UNINSTALL to release a phone). devOtp comes only
     * outside production.
     */
    sendOtpToUser: build.mutation<TContractData<TSendOtpToUser>, TContractBody<TSendOtpToUser>>({
      query: (body) =>
        contractRequest<TSendOtpToUser>({ path: paths.auth.sendOtpToUser, method: 'POST' }, { body }),
    }),
    /**
     * offline_lock_unlock: the 8-digit code for the challenge a phone with no network shows
     * (OTP purpose BYPASS_CODE). Nothing is sent to the phone, so no cache changes.
     */
    getOfflineCode: build.mutation<TContractData<TOfflineLockUnlock>, TContractBody<TOfflineLockUnlock>>({
      query: (body) =>
        contractRequest<TOfflineLockUnlock>({ path: paths.auth.offlineLockUnlock, method: 'POST' }, { body }),
    }),
    /** Uninstall (release) the customer's phone, after an OTP of purpose UNINSTALL. */
    uninstallDevice: build.mutation<TContractData<TUninstall>, TContractBody<TUninstall>>({
      query: (body) =>
        contractRequest<TUninstall>({ path: paths.devices.uninstall, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        PENDING_COMMANDS_TAG,
      ],
    }),
    /** Release the phone of a customer whose EMIs are completed (status 5). */
    unclaimDevice: build.mutation<TContractData<TUnclaim>, TContractBody<TUnclaim>>({
      query: (body) => contractRequest<TUnclaim>({ path: paths.devices.unclaim, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
      ],
    }),
    /** sim_changes: the SIM changes of the organisation's phones, newest first, a page at a time. */
    getSimChanges: build.query<TContractData<TSimChanges>, TSimChangesArgs>({
      query: ({ page, pageSize }) =>
        contractRequest<TSimChanges>(
          { path: paths.devices.simChanges, method: 'GET' },
          { params: { page, pageSize } },
        ),
      providesTags: [SIM_CHANGE_LIST_TAG],
    }),
    /** customer_sim_change_details: one customer's SIM changes. The cache key is the customer. */
    getCustomerSimChanges: build.query<TContractData<TSimChangeDetails>, number>({
      query: (customerId) =>
        contractRequest<TSimChangeDetails>(
          { path: paths.customers.simChangeDetails, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [simChangeTag(customerId)],
      // Shown on customer_details' device tab, which reads offline (issue 28).
      extraOptions: READABLE_OFFLINE,
    }),
  }),
});

export const {
  useGetEnrolmentQrQuery,
  useLockDeviceMutation,
  useUnlockDeviceMutation,
  useGetCommandHistoryQuery,
  useSendDeviceControlMutation,
  useCancelCommandMutation,
  useGetPendingCommandsQuery,
  useChangeDevicePinMutation,
  useBulkLockUnlockMutation,
  useGetBulkPreviewQuery,
  useGetBulkProgressQuery,
  useSendOtpToUserMutation,
  useGetOfflineCodeMutation,
  useUninstallDeviceMutation,
  useUnclaimDeviceMutation,
  useGetSimChangesQuery,
  useGetCustomerSimChangesQuery,
} = deviceApi;
