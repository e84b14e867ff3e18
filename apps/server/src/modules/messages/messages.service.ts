import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import { statusRefusalOf } from '@kisht/domain/devices/command-rules';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import {
  BIRTHDAYS_TODAY_LIMIT,
  birthdayMonthDays,
  canShowMessages,
  isBirthdayOn,
  MESSAGES_PER_PHONE_PER_DAY,
  type TBirthdaysToday,
  type ZSendCustomerMessageRequest,
} from '@kisht/domain/messages/messages.schema';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { CommandDispatcher } from '../devices/device-outbox.service';
import { queueMessageCommand } from '../devices/message-commands.service';
import { scopeOf } from '../scope/scope.service';
import * as repo from './messages.repository';

/**
 * send_fcm_retailer_to_customer (spec §7, issue 16): the retailer's (or a mini-retailer's with
 * `user.feature_access`) text message to the customer's phone, as a show_message command with the
 * shop's name as `from` (its shop name, else its name), through the devices module's outbox (see
 * queueMessageCommand: audit entry, command history, at most MESSAGES_PER_PHONE_PER_DAY in 24
 * hours). Throws CUSTOMER_NOT_FOUND (404) outside the actor's scope, FORBIDDEN (403) for customers
 * or without feature access, DEVICE_NOT_ENROLLED (409), NOT_FOR_THIS_DEVICE_FAMILY (409) for an
 * iPhone or managed-Android phone, RATE_LIMITED (429).
 */
export const sendCustomerMessage = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; request: z.output<typeof ZSendCustomerMessageRequest> },
): Promise<TDeviceCommand> => {
  const { actor, request } = options;
  const sender = await repo.findUserFacts(deps.db, actor.orgId, actor.userId);
  if (!sender) throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can do this');
  return queueMessageCommand(deps, {
    actor,
    customerId: request.customer_id,
    feature: 'customer_message',
    args: {
      ...(request.title ? { title: request.title } : {}),
      text: request.message,
      from: (sender.shopName?.trim() || sender.name).slice(0, 100),
    },
    perDayLimit: MESSAGES_PER_PHONE_PER_DAY,
  });
};

/**
 * birthdays_today (issue 16, spec §3 `birthdayCelebration`): on `today` (+05:30), whether it is the
 * signed-in user's birthday (a retailer's or mini-retailer's own date of birth; a customer's date of
 * birth on any of their loans in the organisation) and, for retailers and mini-retailers, the
 * customers of their scope (own and, for a retailer, its mini-retailers') born on this day, at most
 * BIRTHDAYS_TODAY_LIMIT, each saying whether "Send wishes" can reach the phone.
 */
export const getBirthdaysToday = async (
  db: DbOrTx,
  actor: TActor,
  today: string = istDate(),
): Promise<TBirthdaysToday> => {
  const me = await repo.findUserFacts(db, actor.orgId, actor.userId);
  if (!me) throw new AppError(AppErrorCode.FORBIDDEN, 'Not signed in');
  if (actor.userType === 'customer') {
    const dates = [me.dateOfBirth, ...(await repo.findDatesOfBirthOfMobile(db, actor.orgId, me.mobile))];
    return {
      today,
      isOwnBirthday: dates.some((date) => isBirthdayOn(date, today)),
      name: me.name,
      customers: [],
      total: 0,
    };
  }
  const { rows, total } = await repo.findCustomersBornOn(
    db,
    await scopeOf(db, actor),
    birthdayMonthDays(today),
    BIRTHDAYS_TODAY_LIMIT,
  );
  return {
    today,
    isOwnBirthday: isBirthdayOn(me.dateOfBirth, today),
    name: me.name,
    customers: rows.map((row) => ({
      id: row.id,
      name: `${row.firstName} ${row.lastName}`.trim(),
      mobile: row.mobile,
      dateOfBirth: row.dateOfBirth!,
      canMessage:
        row.enrolledAt !== null &&
        row.secretHash !== null &&
        canShowMessages(row.deviceType) &&
        statusRefusalOf(row.status, 'show_message') === null,
    })),
    total,
  };
};
