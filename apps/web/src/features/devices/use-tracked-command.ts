import type { TAppleDetails } from '@kisht/domain/apple/apple.schema';
import { COMMAND_STATES, isPendingCommandState, type TCommandState } from '@kisht/domain/common/enums';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { useGetCommandHistoryQuery } from './device-api';

/** How often a command this screen sent is looked up while it is on its way, ms. */
export const TRACKED_COMMAND_POLL_MS = 2000;

/** A command as a screen that sent it shows it: its newest state, error and result. */
export type TTrackedCommand = Pick<TDeviceCommand, 'id' | 'state' | 'error' | 'updatedAt'> & {
  /** What the phone answered (the history's result), once it has; null before. */
  result: Record<string, unknown> | null;
};

/** Whether a state string (an API's `z.string()` state) is one of the command states. */
export const isCommandState = (state: string): state is TCommandState =>
  COMMAND_STATES.some((known) => known === state);

/**
 * The newest word on a command this screen sent (`command`, the POST's answer): it follows the
 * phone's command history, polled every TRACKED_COMMAND_POLL_MS while the command is queued, sent
 * or received, and left alone once it ends. Null while nothing was sent.
 */
export const useTrackedCommand = (
  customerId: number,
  command: TDeviceCommand | null,
): TTrackedCommand | null => {
  const cached = useGetCommandHistoryQuery(customerId, { skip: command === null });
  const fromHistory = command ? cached.data?.find((item) => item.id === command.id) : undefined;
  const latest: TTrackedCommand | null = command
    ? fromHistory
      ? {
          id: fromHistory.id,
          state: fromHistory.state,
          error: fromHistory.error,
          updatedAt: fromHistory.updatedAt,
          result: fromHistory.result,
        }
      : {
          id: command.id,
          state: command.state,
          error: command.error,
          updatedAt: command.updatedAt,
          result: null,
        }
    : null;
  const isPending = latest !== null && isPendingCommandState(latest.state);
  // A second subscription to the same cache entry, polling only while the command is on its way.
  useGetCommandHistoryQuery(customerId, {
    skip: !isPending,
    pollingInterval: TRACKED_COMMAND_POLL_MS,
    skipPollingIfUnfocused: false,
  });
  return latest;
};

/** Whether an iPhone's newest sync (TAppleDetails.lastSync) is still on its way (queued, sent or received). */
export const isSyncPending = (lastSync: TAppleDetails['lastSync']): boolean =>
  lastSync !== null && isCommandState(lastSync.state) && isPendingCommandState(lastSync.state);
