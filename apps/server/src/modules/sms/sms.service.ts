import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyBaseLogger } from 'fastify';
import pRetry from 'p-retry';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import * as repo from './sms.repository';
import { SmsRejectedError, type SmsTransport } from './sms.transport';
import { renderSmsFor, type TSmsContent, type TSmsPurpose } from './sms-templates';

export type { TSmsContent, TSmsPurpose } from './sms-templates';

/** How far a delivery got: handed to the gateway, waiting in the outbox for a retry, or given up. */
export type TSmsDeliveryOutcome = 'sent' | 'queued' | 'failed';

/** What one outbox job run did. */
export type TSmsJobResult = { sent: number; retried: number; failed: number; expired: number };

/** Tries a delivery within a request makes at most (within SMS_INLINE_BUDGET_MS). */
const INLINE_TRIES = 3;
/** Rows one job run takes at most. */
const JOB_BATCH = 50;
/** Tries one job run makes per row (one quick retry for a blip; later ones wait for the back-off). */
const JOB_TRIES_PER_ROW = 2;
/** Margin added to a lease over the time its tries may take, ms. */
const LEASE_MARGIN_MS = 30_000;

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;

/**
 * The SMS outbox (design: anything that must not be lost goes through an outbox row first). Every
 * SMS is a sms_outbox row written in the caller's transaction (queueSms); after commit the caller
 * delivers it (deliver, or deliverInBackground), and a periodic job (deliverDue) retries what is
 * left with back-off. Tries use p-retry, each cut off by SMS_SEND_TIMEOUT_MS (the transport's
 * AbortSignal.timeout) and the whole delivery by its budget. A row ends `sent` (the OTP challenge
 * it carries gets sent_at), `failed` after SMS_MAX_ATTEMPTS tries or a permanent refusal, or
 * `expired` past not_after (the OTP's expiry) or when a newer OTP replaces it; its body and template
 * variables are cleared when it ends, so no OTP stays in clear. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease,
 * so several server processes never send one row twice.
 */
export class SmsOutbox {
  private readonly inFlight = new Set<Promise<unknown>>();
  /** A moving average of how long a successful delivery took, ms (imitateDelivery waits as long). */
  private typicalDeliveryMs = 0;

  constructor(
    private readonly deps: { db: Db; transport: SmsTransport; config: TConfig; log: FastifyBaseLogger },
  ) {}

  /**
   * Writes a queued SMS in the caller's transaction (`db`) and returns its id; deliver it after
   * commit. It is leased to that delivery for its budget, so the job leaves it alone meanwhile.
   * `content` is the SMS as a registered DLT template and its variables (sms-templates.ts): the row
   * keeps both the rendered text (for the webhook) and the variables (for MSG91). There is no free
   * text: a purpose without a registered template, or a kind not its own, throws a plain Error (a
   * programming error) and writes nothing. `notAfter`: past it the SMS is useless (an OTP's
   * expiry). Throws SMS_UNAVAILABLE (503) when the row cannot be written; the caller's transaction
   * then rolls back with it.
   */
  async queueSms(
    db: DbOrTx,
    message: {
      orgId: number;
      mobile: string;
      purpose: TSmsPurpose;
      content: TSmsContent;
      otpChallengeId?: number;
      notAfter?: Date;
    },
  ): Promise<number> {
    const text = renderSmsFor(message.purpose, message.content);
    try {
      return await repo.insertSms(db, {
        orgId: message.orgId,
        mobile: message.mobile,
        purpose: message.purpose,
        body: text,
        templateKind: message.content.kind,
        templateVars: message.content.variables,
        otpChallengeId: message.otpChallengeId ?? null,
        notAfter: message.notAfter ?? null,
        nextAttemptAt: new Date(Date.now() + this.deps.config.SMS_INLINE_BUDGET_MS + LEASE_MARGIN_MS),
      });
    } catch (error) {
      this.deps.log.error({ err: error, purpose: message.purpose }, 'SMS could not be queued');
      throw new AppError(
        AppErrorCode.SMS_UNAVAILABLE,
        'We could not send the SMS just now. Please try again in a minute',
      );
    }
  }

  /**
   * Delivers a queued row now, trying for at most SMS_INLINE_BUDGET_MS (tries, back-off and
   * timeouts included): 'sent', 'queued' (left to the job) or 'failed' (refused for good, or out
   * of tries). Never throws for a gateway failure.
   */
  async deliver(id: number): Promise<TSmsDeliveryOutcome> {
    const row = await repo.findQueuedSms(this.deps.db, id);
    if (!row) return 'queued';
    const { config } = this.deps;
    return this.send(row, {
      maxTries: Math.max(1, Math.min(INLINE_TRIES, config.SMS_MAX_ATTEMPTS - row.attempts)),
      budgetMs: config.SMS_INLINE_BUDGET_MS,
    });
  }

  /** deliver() without waiting for it (a notice): failures are logged and left to the job. */
  deliverInBackground(id: number): void {
    const delivery = this.deliver(id).catch((error: unknown) =>
      this.deps.log.warn({ err: error, smsId: id }, 'SMS delivery failed; the outbox job retries it'),
    );
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** Resolves once every background delivery started so far has finished (closing, tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /**
   * The outbox job: expires queued rows past not_after, then claims due rows (FOR UPDATE SKIP
   * LOCKED, leased) and tries each again, up to JOB_TRIES_PER_ROW tries within its remaining
   * SMS_MAX_ATTEMPTS.
   */
  async deliverDue(): Promise<TSmsJobResult> {
    const { db, config } = this.deps;
    const expired = await repo.expireOverdueSms(db);
    const budgetMs = JOB_TRIES_PER_ROW * config.SMS_SEND_TIMEOUT_MS + 2_000;
    const rows = await db.transaction((tx) =>
      repo.claimDueSms(tx, { limit: JOB_BATCH, leaseMs: budgetMs + LEASE_MARGIN_MS }),
    );
    const outcomes = await Promise.all(
      rows.map((row) =>
        this.send(row, {
          maxTries: Math.max(1, Math.min(JOB_TRIES_PER_ROW, config.SMS_MAX_ATTEMPTS - row.attempts)),
          budgetMs,
        }),
      ),
    );
    const count = (outcome: TSmsDeliveryOutcome) => outcomes.filter((o) => o === outcome).length;
    return { sent: count('sent'), retried: count('queued'), failed: count('failed'), expired };
  }

  /** Ends the queued SMS of OTP challenges a newer OTP replaced (in the caller's transaction). */
  async dropQueuedOtpSms(db: DbOrTx, otpChallengeIds: number[]): Promise<void> {
    await repo.expireQueuedOtpSms(db, otpChallengeIds, 'superseded by a newer OTP');
  }

  /**
   * Waits about as long as a successful delivery has lately taken, so an OTP request for a number
   * with no account, which sends nothing, answers in about the time a real one does (OWASP ASVS
   * 5.0 6.3.8: valid users are not deduced from response times).
   */
  async imitateDelivery(): Promise<void> {
    const ms = Math.min(
      this.typicalDeliveryMs * (0.8 + Math.random() * 0.4),
      this.deps.config.SMS_INLINE_BUDGET_MS,
    );
    if (ms >= 1) await sleep(ms);
  }

  private async send(
    row: repo.TSmsToSend,
    { maxTries, budgetMs }: { maxTries: number; budgetMs: number },
  ): Promise<TSmsDeliveryOutcome> {
    const { db, config, transport } = this.deps;
    const budget = AbortSignal.timeout(budgetMs);
    const startedAt = performance.now();
    let tries = 0;
    // The gateway's own last answer says more than the budget's abort that may end the retries.
    let lastFailure: unknown;
    try {
      await pRetry(
        async () => {
          tries += 1;
          try {
            await transport.send(
              { to: row.mobile, text: row.body },
              { signal: budget, ...(row.template ? { template: row.template } : {}) },
            );
          } catch (error) {
            lastFailure = error;
            throw error;
          }
        },
        {
          retries: maxTries - 1,
          minTimeout: 200,
          maxTimeout: 2_000,
          factor: 2,
          randomize: true,
          signal: budget,
          shouldRetry: (error) => !(error instanceof SmsRejectedError),
        },
      );
    } catch (error) {
      const state = await repo.recordSmsFailure(db, row.id, {
        tries: Math.max(tries, 1),
        error: describeError(lastFailure ?? error),
        isPermanent: error instanceof SmsRejectedError,
        maxAttempts: config.SMS_MAX_ATTEMPTS,
        retryAfterSeconds: config.SMS_RETRY_AFTER_SECONDS,
      });
      this.deps.log.warn({ smsId: row.id, tries, err: error, state }, 'SMS not delivered');
      return state === 'failed' ? 'failed' : 'queued';
    }
    // Only first-try successes say how long the gateway usually takes.
    if (tries === 1) {
      const took = performance.now() - startedAt;
      this.typicalDeliveryMs =
        this.typicalDeliveryMs === 0 ? took : 0.8 * this.typicalDeliveryMs + 0.2 * took;
    }
    await repo.markSmsSent(db, row.id, tries);
    return 'sent';
  }
}
