import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { getDeviceControlSettings, writeDeviceControlSettings } from '../orgs/orgs.service';
import type { CommandDispatcher } from './device-outbox.service';
import * as repo from './devices.repository';
import { offlineLimitMs } from './enrolment.service';

/**
 * Saves the organisation's device-control settings (device_settings PUT; see
 * writeDeviceControlSettings) and, when the offline limit changed, gives every enrolled phone a
 * new policy version carrying it (device protocol §6, §12.2), in the same transaction. Publishing
 * runs in the background after commit; a phone that is off gets the newest version with its next
 * sync, so two changes while it is away reach it as one. Returns the saved settings and how many
 * phones were told. Throws FORBIDDEN unless the actor is a retailer.
 */
export const saveDeviceControlSettings = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  actor: TActor,
  next: TDeviceControlSettings,
): Promise<{ settings: TDeviceControlSettings; phonesTold: number }> => {
  const told = await deps.db.transaction(async (tx) => {
    const before = await writeDeviceControlSettings(tx, actor, next);
    if (before.offlineLockAfterHours === next.offlineLockAfterHours) return [];
    const deviceIds = await repo.findEnrolledDeviceIdsOfOrg(tx, actor.orgId);
    const offlineLockAfterMs = offlineLimitMs(next.offlineLockAfterHours);
    await repo.editPolicies(
      tx,
      deviceIds.map((deviceId) => ({ deviceId, offlineLockAfterMs })),
    );
    return deviceIds;
  });
  if (told.length > 0) void deps.dispatcher.publishPolicies(told).catch(() => undefined);
  return { settings: await getDeviceControlSettings(deps.db, actor), phonesTold: told.length };
};
