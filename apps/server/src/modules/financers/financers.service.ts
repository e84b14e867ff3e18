import { isHdbFinancer } from '@kisht/domain/catalogue/financer-handoff.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit, type TAuditEntry } from '../audit/audit.repository';
import { getCustomerDetails } from '../customer-details/customer-details.service';
import { findCustomerForActor } from '../scope/scope.service';
import { startFakeHdb, type TFakeHdb } from './fake-hdb';
import type { TFinancerGateway } from './financer.gateway';
import * as repo from './financers.repository';
import { createHdbGateway } from './hdb.adapter';

export type { TFinancerGateway } from './financer.gateway';

/** First wait before a failed hand-off is tried again, seconds; it doubles with each try. Also the lease of a try. */
export const HANDOFF_RETRY_AFTER_SECONDS = 60;
/** The longest wait between tries of one hand-off, seconds. */
export const HANDOFF_MAX_RETRY_SECONDS = 3600;
/** Hand-offs one job run takes. */
const HANDOFF_BATCH = 20;

/** What one try of a hand-off came to. */
export type THandoffOutcome = 'done' | 'failed';

/**
 * The HDB gateway the configuration asks for: the HTTP adapter on HDB_API_URL with HDB_API_KEY
 * (throws naming HDB_API_KEY when the key is missing). Without HDB_API_URL: outside production an
 * in-process fake HDB (fake-hdb.ts) started on an ephemeral port on first use; in production
 * null, so hand-offs stay pending (logged at start and by the job). `close` stops the fake.
 */
export const createFinancerGateway = (
  config: TConfig,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): { gateway: TFinancerGateway | null; close: () => Promise<void> } => {
  if (config.HDB_API_URL) {
    if (!config.HDB_API_KEY) throw new Error('HDB_API_KEY must be set with HDB_API_URL');
    return {
      gateway: createHdbGateway({ apiUrl: config.HDB_API_URL, apiKey: config.HDB_API_KEY }),
      close: async () => {},
    };
  }
  if (config.NODE_ENV === 'production') {
    log.warn('HDB_API_URL is not set: customers financed by HDB stay pending until it is');
    return { gateway: null, close: async () => {} };
  }
  let fake: Promise<TFakeHdb> | undefined;
  let inner: Promise<TFinancerGateway> | undefined;
  const started = () => {
    fake ??= startFakeHdb();
    inner ??= fake.then((running) => {
      log.info({ url: running.apiUrl }, 'HDB_API_URL is not set: HDB hand-offs go to an in-process fake HDB');
      return createHdbGateway({ apiUrl: running.apiUrl, apiKey: running.apiKey, name: 'fake-hdb' });
    });
    return inner;
  };
  return {
    gateway: {
      name: 'fake-hdb',
      createCustomer: async (request) => (await started()).createCustomer(request),
    },
    close: async () => {
      if (fake) await (await fake).close();
    },
  };
};

/** Sends one customer to the financer and records the outcome (status, reference, audit entry). */
const attemptHandoff = async (options: {
  db: Db;
  gateway: TFinancerGateway;
  orgId: number;
  customerId: number;
  attempt: number;
  actorUserId: number | null;
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}): Promise<THandoffOutcome> => {
  const { db, orgId, customerId } = options;
  const row = await repo.findHandoffCustomer(db, orgId, customerId);
  if (!row) return 'failed';
  const audit = (
    outcome: { outcome: 'done'; reference: string } | { outcome: 'failed'; error: string },
  ): TAuditEntry => ({
    orgId,
    actorUserId: options.actorUserId,
    action: 'customer.financer_handoff',
    entity: 'customer',
    entityId: String(customerId),
    details: { financer: row.financerName, attempt: options.attempt, ...outcome },
  });
  try {
    const { reference } = await options.gateway.createCustomer({
      customer: {
        orgId,
        customerId,
        firstName: row.firstName,
        lastName: row.lastName,
        mobile: row.mobile,
        email: row.email,
        dateOfBirth: row.dateOfBirth,
        address: row.address
          ? {
              line1: row.address.line1,
              city: row.address.city,
              stateCode: row.address.stateCode,
              countryCode: row.address.countryCode,
              pincode: row.address.pincode,
            }
          : null,
        imei1: row.imei1,
        imei2: row.imei2,
        productName: `${row.productBrand} ${row.productName}`,
      },
      loan: {
        pricePaise: row.pricePaise,
        downPaymentPaise: row.downPaymentPaise,
        loanAmountPaise: row.loanAmountPaise,
        tenureMonths: row.tenureMonths,
        annualRateBps: row.annualRateBps,
        emiPaise: row.emiPaise,
      },
    });
    await db.transaction(async (tx) => {
      if (await repo.markHandoffDone(tx, orgId, customerId, reference)) {
        await insertAudit(tx, audit({ outcome: 'done', reference }));
      }
    });
    return 'done';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.log?.warn({ orgId, customerId, err: error }, 'HDB hand-off failed; it will be retried');
    await db.transaction(async (tx) => {
      if (await repo.markHandoffFailed(tx, orgId, customerId)) {
        await insertAudit(tx, audit({ outcome: 'failed', error: message.slice(0, 300) }));
      }
    });
    return 'failed';
  }
};

/**
 * The hand-off job: takes customers whose HDB hand-off is pending or failed and due (a failed one
 * waits HANDOFF_RETRY_AFTER_SECONDS after its first try, doubling with each, at most
 * HANDOFF_MAX_RETRY_SECONDS), claimed FOR UPDATE SKIP LOCKED with a try recorded in the same
 * transaction, so several processes never send one at once; sends each after commit and stores
 * the reference (done) or marks it failed. Without a gateway (production without HDB_API_URL) it
 * sends nothing and reports how many wait. `now` is for tests.
 */
export const handOffDueCustomers = async (options: {
  db: Db;
  gateway: TFinancerGateway | null;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  now?: Date;
}): Promise<{ done: number; failed: number; waiting: number }> => {
  const { db, gateway } = options;
  if (!gateway) {
    const waiting = await repo.countOpenHandoffs(db);
    if (waiting > 0) options.log?.warn({ waiting }, 'HDB hand-offs waiting: HDB_API_URL is not set');
    return { done: 0, failed: 0, waiting };
  }
  const claimed = await db.transaction(async (tx) => {
    const rows = await repo.claimDueHandoffs(tx, {
      now: options.now ?? new Date(),
      limit: HANDOFF_BATCH,
      baseDelaySeconds: HANDOFF_RETRY_AFTER_SECONDS,
      maxDelaySeconds: HANDOFF_MAX_RETRY_SECONDS,
    });
    // The claim's snapshot may predate another run's commit of the same rows (its try lives in the
    // audit log, not on the row, so PostgreSQL does not re-check it): with the rows locked now, a
    // fresh count shows such a try, and that customer is left to the run that made it.
    const now = await repo.countAttempts(
      tx,
      rows.map((row) => row.customerId),
    );
    const mine = rows.filter((row) => now.get(row.customerId) === row.attempts);
    for (const row of mine) await recordAttempt(tx, row.orgId, row.customerId, row.attempts + 1, null);
    return mine;
  });
  let done = 0;
  let failed = 0;
  for (const row of claimed) {
    const outcome = await attemptHandoff({
      db,
      gateway,
      orgId: row.orgId,
      customerId: row.customerId,
      attempt: row.attempts + 1,
      actorUserId: null,
      log: options.log,
    });
    if (outcome === 'done') done += 1;
    else failed += 1;
  }
  return { done, failed, waiting: 0 };
};

const recordAttempt = (
  db: Parameters<typeof insertAudit>[0],
  orgId: number,
  customerId: number,
  attempt: number,
  actorUserId: number | null,
) =>
  insertAudit(db, {
    orgId,
    actorUserId,
    action: repo.HANDOFF_ATTEMPT_ACTION,
    entity: 'customer',
    entityId: String(customerId),
    details: { attempt },
  });

/**
 * create-customer-hdb (spec §7): hands the actor's customer to HDB now, whatever the back-off,
 * and answers the customer's details with the reference. A customer already handed off is not
 * sent again. Throws CUSTOMER_NOT_FOUND outside the actor's scope (other organisations too),
 * FINANCER_HANDOFF_NOT_APPLICABLE (409) when the customer's financer is not HDB,
 * FINANCER_UNAVAILABLE (503) when HDB cannot be reached or is not configured (the hand-off is
 * then failed or pending, and the job tries again).
 */
export const requestHdbHandoff = async (options: {
  db: Db;
  gateway: TFinancerGateway | null;
  actor: TActor;
  customerId: number;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}): Promise<TCustomerDetails> => {
  const { db, actor } = options;
  const { customer } = await findCustomerForActor(db, actor, options.customerId);
  const row = await repo.findHandoffCustomer(db, customer.orgId, customer.id);
  if (!row || !isHdbFinancer(row.financerName)) {
    throw new AppError(
      AppErrorCode.FINANCER_HANDOFF_NOT_APPLICABLE,
      "This customer's financer is not HDB; only HDB customers are sent to a financer",
      [{ field: 'customer_id', message: 'The customer is not financed by HDB' }],
    );
  }
  const attempt = await db.transaction(async (tx) => {
    const locked = await repo.lockHandoff(tx, customer.orgId, customer.id);
    if (!locked || locked.status === 'done') return null;
    if (locked.status === null) await repo.markHandoffPending(tx, customer.orgId, customer.id);
    if (!options.gateway) return { attempts: locked.attempts, isConfigured: false };
    await recordAttempt(tx, customer.orgId, customer.id, locked.attempts + 1, actor.userId);
    return { attempts: locked.attempts + 1, isConfigured: true };
  });
  if (attempt && !attempt.isConfigured) {
    throw new AppError(
      AppErrorCode.FINANCER_UNAVAILABLE,
      'HDB is not connected on this server yet; the customer stays pending',
    );
  }
  if (attempt && options.gateway) {
    const outcome = await attemptHandoff({
      db,
      gateway: options.gateway,
      orgId: customer.orgId,
      customerId: customer.id,
      attempt: attempt.attempts,
      actorUserId: actor.userId,
      log: options.log,
    });
    if (outcome === 'failed') {
      throw new AppError(
        AppErrorCode.FINANCER_UNAVAILABLE,
        'HDB could not be reached; the hand-off will be retried automatically',
      );
    }
  }
  return getCustomerDetails(db, actor, customer.id);
};
