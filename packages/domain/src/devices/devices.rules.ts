import type { TDeviceSummary } from './devices.schema';

/** What the UI shows for a device's lock: reported state plus the pending command (design §5). */
export type TLockDisplay = 'locked' | 'unlocked' | 'locking' | 'unlocking';

/**
 * Derives the lock display from the reported lock status and the newest pending command: a pending
 * lock shows 'locking', a pending unlock 'unlocking', otherwise the reported state.
 */
export const deriveLockDisplay = (
  device: Pick<TDeviceSummary, 'lockStatus' | 'pendingCommand'>,
): TLockDisplay => {
  if (device.pendingCommand?.name === 'lock') return 'locking';
  if (device.pendingCommand?.name === 'unlock') return 'unlocking';
  return device.lockStatus === 1 ? 'locked' : 'unlocked';
};
