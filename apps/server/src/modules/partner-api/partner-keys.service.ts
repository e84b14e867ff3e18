import { randomBytes } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  formatPartnerKey,
  PARTNER_KEY_PREFIX,
  parsePartnerKey,
  type TPartnerKeyScope,
} from '@kisht/domain/partner-api/partner-api.rules';
import type { TCreatePartnerKey, TPartnerKey } from '@kisht/domain/partner-api/partner-api.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hexEquals, randomToken, sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import * as repo from './partner-keys.repository';

/*
 * Partner API keys (issue 30, docs/partner-api.md): the organisation admin makes and revokes them;
 * a lender's server sends one as `Authorization: Bearer kisht_pk_…` and acts, through the same
 * services and command gate as the app, as the retailer its loans are booked under, over the
 * whole organisation's customers.
 */

const keyNotFound = () => new AppError(AppErrorCode.NOT_FOUND, 'API key not found');

/** Only the organisation admin manages API keys; throws FORBIDDEN for anyone else. */
const requireAdmin = (actor: TActor) => {
  if (actor.userType !== 'admin')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin manages API keys');
};

const keyOf = (row: { key: repo.TPartnerKeyRow; retailerName: string }): TPartnerKey => ({
  id: row.key.id,
  name: row.key.name,
  keyPrefix: `${PARTNER_KEY_PREFIX}${row.key.publicId}`,
  scopes: row.key.scopes as TPartnerKeyScope[],
  retailerId: row.key.retailerId,
  retailerName: row.retailerName,
  createdAt: row.key.createdAt.toISOString(),
  revokedAt: row.key.revokedAt?.toISOString() ?? null,
});

const audit = (
  db: DbOrTx,
  actor: TActor,
  action: 'partner_key.created' | 'partner_key.revoked',
  key: TPartnerKey,
) =>
  insertAudit(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action,
    entity: 'partner_key',
    entityId: String(key.id),
    details: { name: key.name, scopes: key.scopes, retailerId: key.retailerId },
  });

/** The organisation's keys, newest first (paths.partnerKeys.keys GET; admin; never a secret). */
export const listPartnerKeys = async (db: DbOrTx, actor: TActor): Promise<TPartnerKey[]> => {
  requireAdmin(actor);
  return (await repo.listKeys(db, actor.orgId)).map(keyOf);
};

/** 12 lowercase letters and digits, a key's public id. */
const newPublicId = (): string => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(12)].map((byte) => alphabet[byte % alphabet.length]).join('');
};

/**
 * Makes a key (paths.partnerKeys.keys POST; admin) and answers its whole text this once; only its
 * secret's SHA-256 is kept. Throws FORBIDDEN for anyone but the organisation admin, NOT_FOUND
 * (field retailer_id) unless it is an active shop (retailer or mini-retailer) of the organisation.
 */
export const createPartnerKey = async (
  db: Db,
  actor: TActor,
  request: TCreatePartnerKey,
): Promise<{ key: TPartnerKey; apiKey: string }> => {
  requireAdmin(actor);
  if (!(await repo.findActiveShop(db, actor.orgId, request.retailer_id))) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Retailer not found', [
      { field: 'retailer_id', message: 'Choose an active shop of your organisation' },
    ]);
  }
  const publicId = newPublicId();
  const secret = randomToken(32);
  const key = await db.transaction(async (tx) => {
    const id = await repo.insertKey(tx, {
      orgId: actor.orgId,
      retailerId: request.retailer_id,
      name: request.name,
      publicId,
      secretHash: sha256Hex(secret),
      scopes: [...request.scopes],
      createdBy: actor.userId,
    });
    const made = keyOf((await repo.findKey(tx, actor.orgId, id))!);
    await audit(tx, actor, 'partner_key.created', made);
    return made;
  });
  return { key, apiKey: formatPartnerKey(publicId, secret) };
};

/**
 * Revokes a key (paths.partnerKeys.keys DELETE; admin): its next request answers 401 on every
 * server process, since each request reads its key. Revoking a revoked key answers it unchanged.
 * Throws FORBIDDEN for anyone but the organisation admin, NOT_FOUND for another organisation's key.
 */
export const revokePartnerKey = async (db: Db, actor: TActor, keyId: number): Promise<TPartnerKey> => {
  requireAdmin(actor);
  return db.transaction(async (tx) => {
    const found = await repo.findKey(tx, actor.orgId, keyId);
    if (!found) throw keyNotFound();
    if (!(await repo.revokeKey(tx, keyId, actor.userId))) return keyOf(found);
    const revoked = keyOf((await repo.findKey(tx, actor.orgId, keyId))!);
    await audit(tx, actor, 'partner_key.revoked', revoked);
    return revoked;
  });
};

const invalidKey = () =>
  new AppError(AppErrorCode.API_KEY_INVALID, 'A valid API key is required: Authorization: Bearer kisht_pk_…');

/**
 * The actor of a partner request, in one statement (repo.findLiveKey): the retailer the key's
 * loans are booked under, seeing every retailer's customers of the organisation, with the key's
 * scopes. Throws API_KEY_INVALID (401) for a missing, malformed, unknown or revoked key, or a
 * wrong secret (compared in constant time), and FORBIDDEN (403) for a key without `scope`, or
 * whose retailer was deactivated.
 */
export const authenticatePartnerKey = async (
  db: DbOrTx,
  authorization: string | undefined,
  scope: TPartnerKeyScope,
): Promise<TActor & { partnerKeyId: number }> => {
  const text = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : '';
  const parsed = parsePartnerKey(text);
  if (!parsed) throw invalidKey();
  const live = await repo.findLiveKey(db, parsed.publicId);
  if (!live || !hexEquals(live.key.secretHash, sha256Hex(parsed.secret))) throw invalidKey();
  if (!live.key.scopes.includes(scope)) {
    throw new AppError(AppErrorCode.FORBIDDEN, `This API key does not have the ${scope} scope`);
  }
  if (!live.user.isActive) {
    throw new AppError(AppErrorCode.FORBIDDEN, 'The retailer this API key books loans under is deactivated');
  }
  return {
    userId: live.user.id,
    orgId: live.key.orgId,
    userType: 'retailer',
    sessionId: `partner_key:${live.key.id}`,
    partnerKeyId: live.key.id,
    known: {
      user: live.user,
      childRetailerIds: live.otherRetailerIds,
      descendantIds: [],
      parentType: null,
      organization: live.organization,
    },
  };
};
