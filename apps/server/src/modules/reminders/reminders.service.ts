import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatRupees } from '@kisht/domain/common/format';
import { formatCalendarDate, istDate } from '@kisht/domain/common/time';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import {
  isQuietHour,
  nextSendableAt,
  REMINDED_STATUSES,
  reminderStageOf,
  WHATSAPP_LANGUAGE_CODES,
} from '@kisht/domain/reminders/reminders.rules';
import type { TCustomerReminders, TReminderSettings } from '@kisht/domain/reminders/reminders.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { remindOnPhone } from '../devices/auto-lock.service';
import type { CommandDispatcher } from '../devices/device-outbox.service';
import { parseCommandArgs } from '../devices/devices.service';
import { getReminderSchedule, listReminderSchedules, writeReminderSchedule } from '../orgs/orgs.service';
import { findCustomerForActor } from '../scope/scope.service';
import type { SmsOutbox } from '../sms/sms.service';
import { WhatsAppRejectedError, type WhatsAppTransport } from '../whatsapp/whatsapp.transport';
import * as repo from './reminders.repository';

/** What sending reminders needs: the database, the command outbox, the SMS outbox and WhatsApp. */
export type TReminderDeps = {
  db: Db;
  dispatcher: CommandDispatcher;
  sms: SmsOutbox;
  whatsapp: WhatsAppTransport;
  /** The approved WhatsApp template's name (WHATSAPP_TEMPLATE_EMI_REMINDER). */
  whatsappTemplate: string;
  log: FastifyBaseLogger;
};

/** How long a claimed reminder is leased to one sender before another run may take it, ms. */
const LEASE_MS = 5 * 60_000;
/** Reminders sent per run at most (the rest wait for the next run). */
const BATCH = 200;
/** Tries of a reminder whose channel failed for a while (WhatsApp down); then it fails for good. */
const MAX_ATTEMPTS = 5;
/** Wait before a reminder whose channel failed for a while is tried again, ms. */
const RETRY_AFTER_MS = 15 * 60_000;
/** Most reminders a customer's page lists. */
const LIST_LIMIT = 100;

/**
 * Plans every organisation's reminders due on `now`'s +05:30 date (issue 29): for each day of its
 * schedule, each unpaid instalment of an open loan due that many days from today gets one row per
 * channel (not WhatsApp for a customer who refused it), once (a unique row per instalment, day and
 * channel), to go at once or, in the quiet hours, at the 09:00 +05:30 that ends them. Answers how
 * many rows were written.
 */
export const planReminders = async (db: DbOrTx, now: Date = new Date()): Promise<number> => {
  const today = istDate(now);
  const sendAfter = nextSendableAt(now);
  let planned = 0;
  for (const { orgId, schedule } of await listReminderSchedules(db)) {
    planned += await repo.insertDueReminders(db, {
      orgId,
      today,
      offsetsDays: schedule.offsetsDays,
      channels: schedule.channels,
      sendAfter,
    });
  }
  return planned;
};

/** "is due on 02-12-2026", "is due today" or "was due on 26-11-2026": a reminder's words about its date. */
const whenText = (offsetDays: number, dueDate: string) => {
  const stage = reminderStageOf(offsetDays);
  if (stage === 'on_the_day') return 'is due today';
  return `${stage === 'before' ? 'is' : 'was'} due on ${formatCalendarDate(dueDate)}`;
};

type TSendOutcome = Parameters<typeof repo.finishReminder>[2];

/** What sending one reminder came to; `isRecorded`: already written with what it sent (an SMS). */
type TSent = TSendOutcome & { isRecorded?: true };

const sendOne = async (deps: TReminderDeps, row: repo.TClaimedReminder, now: Date): Promise<TSent> => {
  const owedPaise = row.amountPaise - row.paidPaise;
  if (owedPaise <= 0) return { state: 'cancelled', error: 'Paid before it was sent' };
  if (!REMINDED_STATUSES.includes(row.status))
    return { state: 'cancelled', error: 'The loan is no longer open' };
  const today = istDate(now);
  if (row.channel === 'phone') {
    const args = parseCommandArgs(commandSpecOf('emi_alert')!, {
      amountPaise: owedPaise,
      dueDate: row.dueDate,
      overduePaise: row.dueDate < today ? owedPaise : 0,
      message: '',
    });
    const result = await remindOnPhone(deps, { orgId: row.orgId, customerId: row.customerId, args, today });
    return 'commandId' in result
      ? { state: 'sent', providerRef: `command:${result.commandId}`, at: now }
      : { state: 'failed', error: result.refused };
  }
  const amount = formatRupees(owedPaise);
  if (row.channel === 'sms') {
    // The SMS row and the reminder's move to sent commit together, so a crash between them cannot
    // queue a second SMS when the lease runs out.
    const smsId = await deps.db.transaction(async (tx) => {
      const id = await deps.sms.queueSms(tx, {
        orgId: row.orgId,
        mobile: row.mobile,
        purpose: 'EMI_REMINDER',
        content: {
          kind: 'EMI_REMINDER',
          variables: {
            company: row.companyName,
            name: row.firstName,
            amount,
            when: whenText(row.offsetDays, row.dueDate),
          },
        },
      });
      await repo.finishReminder(tx, row.id, { state: 'sent', providerRef: `sms:${id}`, at: now });
      return id;
    });
    deps.sms.deliverInBackground(smsId);
    return { state: 'sent', providerRef: `sms:${smsId}`, at: now, isRecorded: true };
  }
  if (row.whatsappOptOut) return { state: 'cancelled', error: 'The customer refused WhatsApp' };
  try {
    const { messageId } = await deps.whatsapp.sendTemplate({
      to: row.mobile,
      templateName: deps.whatsappTemplate,
      languageCode: WHATSAPP_LANGUAGE_CODES[row.language ?? 'en'] ?? 'en',
      bodyParameters: [row.companyName, row.firstName, amount, formatCalendarDate(row.dueDate)],
      reference: `reminder:${row.id}`,
    });
    return { state: 'sent', providerRef: messageId, at: now };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof WhatsAppRejectedError) return { state: 'failed', error: message };
    return { state: 'queued', error: message, retryAt: new Date(now.getTime() + RETRY_AFTER_MS) };
  }
};

/**
 * Sends the reminders whose time has come (issue 29), none in the quiet hours: each claimed row
 * (leased, so processes never send one twice) goes out on its channel, unless its instalment was
 * paid or its loan closed meanwhile (cancelled), or the customer refused WhatsApp. The phone gets
 * the emi_alert command through the command gate; an SMS is the EMI_REMINDER DLT template through
 * the SMS outbox; WhatsApp the approved template in the customer's language. A WhatsApp failure
 * worth retrying waits 15 minutes, up to five tries. Answers how many were sent.
 */
export const deliverReminders = async (deps: TReminderDeps, now: Date = new Date()): Promise<number> => {
  if (isQuietHour(now)) return 0;
  const claimed = await repo.claimDueReminders(deps.db, { now, leaseMs: LEASE_MS, limit: BATCH });
  let sent = 0;
  for (const row of claimed) {
    let outcome: TSent;
    try {
      outcome = await sendOne(deps, row, now);
    } catch (error) {
      deps.log.warn({ err: error, reminderId: row.id }, 'reminder not sent; tried again later');
      outcome = { state: 'queued', error: String(error), retryAt: new Date(now.getTime() + RETRY_AFTER_MS) };
    }
    if (outcome.state === 'queued' && row.attempts >= MAX_ATTEMPTS) {
      outcome = { state: 'failed', error: outcome.error };
    }
    if (!outcome.isRecorded) await repo.finishReminder(deps.db, row.id, outcome);
    if (outcome.state === 'sent') sent += 1;
  }
  return sent;
};

/** The reminder schedule of the actor's organisation, or null (retailers and mini-retailers; customers 403). */
export const getReminderSettings = async (db: DbOrTx, actor: TActor): Promise<TReminderSettings | null> => {
  if (actor.userType === 'customer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers see these settings');
  return getReminderSchedule(db, actor.orgId);
};

/**
 * Replaces the organisation's reminder schedule (null: no reminders; orgs writeReminderSchedule,
 * audited) and answers it as stored. Throws FORBIDDEN unless the actor is a retailer.
 */
export const saveReminderSettings = async (
  db: Db,
  actor: TActor,
  next: TReminderSettings | null,
): Promise<TReminderSettings | null> => {
  await db.transaction((tx) => writeReminderSchedule(tx, actor, next));
  return getReminderSchedule(db, actor.orgId);
};

/** A customer's reminders, newest first, and their WhatsApp choice. Throws CUSTOMER_NOT_FOUND outside the actor's scope. */
export const listCustomerReminders = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TCustomerReminders> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const rows = await repo.listRemindersOfCustomer(db, customer.id, LIST_LIMIT);
  return {
    whatsappOptOut: customer.whatsappOptOut,
    items: rows.map(({ reminder, instalmentNo, dueDate }) => ({
      id: reminder.id,
      channel: reminder.channel,
      instalmentNo,
      dueDate,
      offsetDays: reminder.offsetDays,
      state: reminder.state,
      sendAfter: reminder.sendAfter.toISOString(),
      sentAt: reminder.sentAt?.toISOString() ?? null,
      deliveredAt: reminder.deliveredAt?.toISOString() ?? null,
      readAt: reminder.readAt?.toISOString() ?? null,
      error: reminder.lastError,
    })),
  };
};

/**
 * Records the customer's WhatsApp choice (audited); refusing cancels their WhatsApp reminders still
 * waiting. Throws CUSTOMER_NOT_FOUND outside the actor's scope.
 */
export const setWhatsAppOptOut = async (
  db: Db,
  actor: TActor,
  request: { customer_id: number; opt_out: boolean },
): Promise<TCustomerReminders> => {
  const { customer } = await findCustomerForActor(db, actor, request.customer_id);
  await db.transaction(async (tx) => {
    await repo.setWhatsAppOptOut(tx, customer.id, request.opt_out);
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'customer.whatsapp_opt_out',
      entity: 'customer',
      entityId: String(customer.id),
      details: { optOut: request.opt_out },
    });
  });
  return listCustomerReminders(db, actor, customer.id);
};

/**
 * Applies WhatsApp's delivery statuses (the webhook's, already verified) to the reminders they
 * report on. Answers how many changed.
 */
export const recordWhatsAppStatuses = async (
  db: DbOrTx,
  statuses: ReadonlyArray<{
    messageId: string;
    status: 'sent' | 'delivered' | 'read' | 'failed';
    at: Date;
    error: string | null;
  }>,
): Promise<number> => {
  let changed = 0;
  for (const status of statuses) {
    if (
      await repo.applyDeliveryReport(db, {
        providerRef: status.messageId,
        state: status.status,
        at: status.at,
        error: status.error,
      })
    ) {
      changed += 1;
    }
  }
  return changed;
};
