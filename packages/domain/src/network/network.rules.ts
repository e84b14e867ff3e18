import type { TUserType } from '../common/enums';

/*
 * The distribution network (issue 30, docs/distribution-network.md): the organisation at the top,
 * then as many levels of distributors as it configures (level 1, the super-distributor, to level
 * `distributorLevels`), then retailers, then their mini-retailers. Every node has one parent: a
 * distributor's is the organisation or a distributor one level up; a retailer's the organisation or
 * any distributor; a mini-retailer's its retailer. Keys are requested from and returned to the
 * parent; a parent sees and decides for its whole subtree. These rules are the only copy: joining
 * and the network's screens ask them.
 */

/** The most distributor levels an organisation may configure. */
export const MAX_DISTRIBUTOR_LEVELS = 5;

/** Distributor levels of an organisation that set none: super-distributor → distributor. */
export const DEFAULT_DISTRIBUTOR_LEVELS = 2;

/** The user types a node may register (join) as, below a parent: a distributor or a retailer. */
export const JOINING_ROLES = ['retailer', 'distributor'] as const satisfies readonly TUserType[];
export type TJoiningRole = (typeof JOINING_ROLES)[number];

/**
 * A parent in the network: the organisation (level 0) or a distributor at its `level` (1 for one
 * whose parent is the organisation).
 */
export type TNetworkParent = { kind: 'organisation' } | { kind: 'distributor'; level: number };

/** A parent's level: 0 for the organisation, else the distributor's. */
export const levelOf = (parent: TNetworkParent): number =>
  parent.kind === 'organisation' ? 0 : parent.level;

/**
 * Whether `role` may join under `parent` when the organisation has `distributorLevels` levels: a
 * retailer under the organisation or any distributor; a distributor only where its level (the
 * parent's + 1) is within the configured levels.
 */
export const mayJoinUnder = (
  role: TJoiningRole,
  parent: TNetworkParent,
  distributorLevels: number,
): boolean => role === 'retailer' || levelOf(parent) + 1 <= distributorLevels;

/** The organisation's distributor levels from its settings (`distributorLevels`), else the default. */
export const distributorLevelsOf = (settings: { distributorLevels?: number } | null | undefined): number =>
  settings?.distributorLevels ?? DEFAULT_DISTRIBUTOR_LEVELS;
