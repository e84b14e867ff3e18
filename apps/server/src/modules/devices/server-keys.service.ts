import type { KeyObject } from 'node:crypto';
import type { TServerKey } from '@kisht/domain/devices/protocol.schema';
import { generateServerKey, privateKeyOf } from '@kisht/domain/devices/server-message';
import type { DbOrTx } from '../../db/client';
import * as repo from './enrolment.repository';

/** An organisation's signing key ready to sign (device protocol §5). */
export type TSigningKey = TServerKey & { privateKey: KeyObject };

/**
 * The organisations' Ed25519 server keys (device protocol §5): made on first use (the first
 * enrolment or message of an organisation; when two processes race, the first stored wins) and
 * kept in memory after the first read. `publicKey` goes to devices at enrolment; `privateKey`
 * never leaves the server.
 */
export class ServerKeys {
  readonly #cache = new Map<number, Promise<TSigningKey>>();

  constructor(private readonly db: DbOrTx) {}

  /** The key of organisation `orgId`, made and stored if it has none. */
  forOrg(orgId: number): Promise<TSigningKey> {
    let key = this.#cache.get(orgId);
    if (!key) {
      key = this.#load(orgId);
      this.#cache.set(orgId, key);
      // A failed read is not remembered: the next call tries again.
      key.catch(() => this.#cache.delete(orgId));
    }
    return key;
  }

  async #load(orgId: number): Promise<TSigningKey> {
    const stored =
      (await repo.findSigningKey(this.db, orgId)) ??
      (await repo.insertSigningKeyOnce(this.db, { orgId, ...generateServerKey() }));
    return { kid: stored.kid, publicKey: stored.publicKey, privateKey: privateKeyOf(stored) };
  }
}
