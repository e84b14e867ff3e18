import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { matchesDeviceSecret } from './devices.service';

/**
 * The embedded broker's connects in batches (issue 17, connect storms): when thousands of phones
 * connect at once (a server restart, a network coming back), each needs its secret checked. One
 * read per phone on the single PGlite connection queues them behind each other; here the checks of
 * every connect that arrives while a batch runs go out together as one read. A batch starts only
 * when the one before it has ended (back-pressure: a storm makes batches larger, not more).
 * Presence writes stay one statement per connect and disconnect, in the order they happen: their
 * order against the hello's recording is what keeps a reconnected phone online.
 */

/** The most connects one statement checks. */
export const CONNECT_BATCH_MAX = 1_000;

/** A device id as PostgreSQL's uuid type takes it (an MQTT client id is not trusted). */
const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A DataLoader that runs its batches one after another: a batch is dispatched once the batch before
 * it has finished, and whatever is loaded meanwhile joins it (up to CONNECT_BATCH_MAX).
 */
const sequentialLoader = <K, V>(load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> => {
  let previous: Promise<unknown> = Promise.resolve();
  return new DataLoader<K, V>(
    (keys) => {
      const run = load(keys);
      previous = run.catch(() => undefined);
      return run;
    },
    {
      cache: false,
      maxBatchSize: CONNECT_BATCH_MAX,
      batchScheduleFn: (dispatch) => {
        void previous.then(() => setImmediate(dispatch));
      },
    },
  );
};

/**
 * The secret check of the embedded broker's connects (MQTT authentication): true when the id and
 * secret belong to an enrolled device (SHA-256 of the secret against devices.secret_hash, constant
 * time). The checks of connects that arrive together are read in one statement (up to
 * CONNECT_BATCH_MAX ids). Throws what the database throws.
 */
export const createDeviceAuthenticator = (
  db: Db,
): ((deviceId: string, secret: string) => Promise<boolean>) => {
  const secrets = sequentialLoader<string, string | null>(async (ids) => {
    const rows = await queryRows<{ id: string; secret_hash: string | null }>(
      db,
      sql`select id, secret_hash from devices
          where id = any(${sql.param([...new Set(ids)])}::uuid[]) and enrolled_at is not null`,
    );
    const byId = new Map(rows.map((row) => [row.id, row.secret_hash]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  return async (deviceId, secret) => {
    if (!DEVICE_ID.test(deviceId)) return false;
    const secretHash = await secrets.load(deviceId.toLowerCase());
    return matchesDeviceSecret(secretHash, secret);
  };
};
