import type { TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import { deviceApi } from './device-api';
import { hasPendingDeviceCommand } from './device-controls';

/**
 * Whether a command is on its way to the customer's phone: the device summary's pending lock or
 * toggles, or a pending action in the command history already cached (it is read, never fetched,
 * here). False until the summary has loaded.
 */
export const useHasPendingDeviceCommand = (
  customerId: number,
  device: TDeviceSummary | undefined,
): boolean => {
  const cachedHistory = deviceApi.endpoints.getCommandHistory.useQueryState(customerId, {
    skip: !customerId,
  });
  return device ? hasPendingDeviceCommand(device, cachedHistory.data) : false;
};
