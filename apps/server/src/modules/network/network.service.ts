import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { keyStockLevel } from '@kisht/domain/ledger/ledger.rules';
import type { TNetwork, TNetworkNode } from '@kisht/domain/network/network.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { lowKeysThresholdOf } from '../notifications/notifications.service';
import { getDistributorLevels, writeDistributorLevels } from '../orgs/orgs.service';
import { descendantIdsOf } from '../users/users.service';
import * as repo from './network.repository';

/*
 * The distribution network (issue 30, docs/distribution-network.md): a parent looks at the nodes
 * below it, one level at a time, with each node's key stock. The organisation admin sees the whole
 * organisation; a distributor its own subtree (the session read's `descendantIds`), so any other
 * node answers 404.
 */

const nodeNotFound = () =>
  new AppError(AppErrorCode.NOT_FOUND, 'Not found in your network', [
    { field: 'parent_id', message: 'Choose a distributor or retailer of your network' },
  ]);

const toNode = (row: repo.TNodeRow, threshold: number): TNetworkNode => ({
  id: row.id,
  userType: row.userType as TNetworkNode['userType'],
  level: row.level,
  name: row.name,
  shopName: row.shopName,
  mobile: row.mobile,
  isActive: row.isActive,
  childCount: row.childCount,
  keys: row.keys.map((key) => ({ ...key, level: keyStockLevel(key.balance, threshold) })),
  createdAt: row.createdAt.toISOString(),
});

/**
 * The nodes right below the actor (the organisation admin: below the organisation), or below
 * `parentId` when given, a node of the actor's subtree (the admin: of its organisation); each with
 * its level, child count and keys coloured against the organisation's low-keys threshold. Throws
 * FORBIDDEN unless the organisation admin or a distributor, NOT_FOUND (field parent_id) for a node
 * outside the actor's subtree (another organisation's, a sibling branch's).
 */
export const getNetwork = async (
  db: DbOrTx,
  actor: TActor,
  parentId?: number | undefined,
): Promise<TNetwork> => {
  if (actor.userType !== 'admin' && actor.userType !== 'distributor')
    throw new AppError(
      AppErrorCode.FORBIDDEN,
      'Only the organisation admin or a distributor sees the network',
    );
  const isOwn = parentId === undefined || (actor.userType === 'distributor' && parentId === actor.userId);
  if (!isOwn && actor.userType === 'distributor' && !(await descendantIdsOf(db, actor)).includes(parentId!))
    throw nodeNotFound();
  const parent = isOwn ? null : await repo.findNode(db, actor.orgId, parentId!);
  if (!isOwn && !parent) throw nodeNotFound();
  const children = await repo.listChildren(
    db,
    actor.orgId,
    isOwn ? (actor.userType === 'admin' ? null : actor.userId) : parentId!,
  );
  const threshold = await lowKeysThresholdOf(db, actor.orgId, actor.known?.organization);
  return {
    parent: parent ? toNode(parent, threshold) : null,
    children: children.map((row) => toNode(row, threshold)),
    distributorLevels: await getDistributorLevels(db, actor),
  };
};

/**
 * Sets how many distributor levels the organisation's network has (0 to MAX_DISTRIBUTOR_LEVELS),
 * audited; answers the setting. Throws FORBIDDEN unless the organisation admin.
 */
export const saveNetworkSettings = async (
  db: Db,
  actor: TActor,
  distributorLevels: number,
): Promise<{ distributorLevels: number }> => {
  await db.transaction((tx) => writeDistributorLevels(tx, actor, distributorLevels));
  return { distributorLevels };
};
