import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { getDeviceControlSettings, writeDeviceControlSettings } from '../orgs/orgs.service';
import type { CommandDispatcher } from './device-outbox.service';
import * as repo from './devices.repository';

/** Rows per INSERT when one change queues a command for every phone of an organisation. */
const COMMANDS_PER_INSERT = 1000;

/**
 * Saves the organisation's device-control settings (device_settings PUT; see
 * writeDeviceControlSettings) and, when the offline limit changed, tells every enrolled phone: in
 * the same transaction a `set_offline_limit` command ({ offlineLockAfterMs: ms | null }) is queued
 * for each, superseding one still pending. Publishing runs in the background after commit; what is
 * not published goes out on the phone's next hello. Returns the saved settings and how many phones
 * were told. Throws FORBIDDEN unless the actor is a retailer.
 */
export const saveDeviceControlSettings = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  actor: TActor,
  next: TDeviceControlSettings,
): Promise<{ settings: TDeviceControlSettings; phonesTold: number }> => {
  const queued = await deps.db.transaction(async (tx) => {
    const before = await writeDeviceControlSettings(tx, actor, next);
    if (before.offlineLockAfterHours === next.offlineLockAfterHours) return [];
    const deviceIds = await repo.findEnrolledDeviceIdsOfOrg(tx, actor.orgId);
    await repo.cancelPendingCommandsOfDevices(
      tx,
      deviceIds,
      ['set_offline_limit'],
      'superseded by a newer offline limit',
    );
    const args = {
      offlineLockAfterMs: next.offlineLockAfterHours === null ? null : next.offlineLockAfterHours * 3_600_000,
    };
    const rows = [];
    for (let i = 0; i < deviceIds.length; i += COMMANDS_PER_INSERT) {
      rows.push(
        ...(await repo.insertCommands(
          tx,
          deviceIds.slice(i, i + COMMANDS_PER_INSERT).map((deviceId) => ({
            id: uuidv7(),
            orgId: actor.orgId,
            deviceId,
            name: 'set_offline_limit',
            args,
            createdBy: actor.userId,
          })),
        )),
      );
    }
    return rows;
  });
  void deps.dispatcher.dispatchMany(queued).catch(() => undefined);
  return { settings: await getDeviceControlSettings(deps.db, actor), phonesTold: queued.length };
};
