import { AppType } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatIndianMobile, formatRupees } from '@kisht/domain/common/format';
import { addDays, formatCalendarDate, istDate } from '@kisht/domain/common/time';
import { type TCertificateLanguage, WARRANTY_REMINDER_DAYS } from '@kisht/domain/plans/warranty.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { findUser } from '../auth/auth.service';
import { findProduct } from '../catalogue/catalogue.service';
import { getOrgAppConfig } from '../orgs/orgs.service';
import { claimWarrantyRemindersDue, findActivationForActor } from '../plans/plans.service';
import type { SmsOutbox } from '../sms/sms.service';
import { renderCertificatePdf } from './warranty-certificate';

/**
 * The PDF certificate of an extended warranty the actor may see (plans.service listActivations:
 * a retailer its subtree's sales, a customer user those bought with their mobile), in `language`
 * (default en; no language is stored per user): the organisation's company name, the activation
 * code as certificate number, the buyer, the product (brand and model), IMEI, plan, term
 * (DD-MM-YYYY), price (₹, Indian grouping), the seller's shop and the date it was sold (+05:30).
 * Throws ACTIVATION_CODE_NOT_FOUND (404, field activation_id) for one outside the actor's scope,
 * PLAN_NOT_APPLICABLE (409, field activation_id) for another plan's activation.
 */
export const renderWarrantyCertificate = async (
  db: DbOrTx,
  options: { actor: TActor; activationId: number; language?: TCertificateLanguage | undefined },
): Promise<{ pdf: Buffer; code: string }> => {
  const { actor } = options;
  const activation = await findActivationForActor(db, actor, options.activationId);
  if (activation.appType !== AppType.EXTENDED_WARRANTY)
    throw new AppError(AppErrorCode.PLAN_NOT_APPLICABLE, 'Only an extended warranty has a certificate', [
      { field: 'activation_id', message: 'This activation is not an extended warranty' },
    ]);
  const [org, product, seller] = await Promise.all([
    getOrgAppConfig(db, actor.orgId),
    activation.productId === null ? null : findProduct(db, actor, activation.productId),
    findUser(db, activation.retailerId),
  ]);
  const pdf = await renderCertificatePdf({
    language: options.language ?? 'en',
    companyName: org.companyName,
    certificateNumber: activation.code,
    customerName: `${activation.firstName} ${activation.lastName}`.trim(),
    mobile: formatIndianMobile(activation.mobile),
    product: product ? `${product.brand} ${product.name}` : '',
    imei: activation.imei ?? '',
    planName: activation.planName,
    termStart: activation.startsOn ? formatCalendarDate(activation.startsOn) : '',
    termEnd: activation.endsOn ? formatCalendarDate(activation.endsOn) : '',
    price: formatRupees(activation.pricePaise),
    seller: seller ? (seller.shopName ?? seller.name) : '',
    issuedOn: formatCalendarDate(istDate(new Date(activation.createdAt))),
  });
  return { pdf, code: activation.code };
};

/** Warranties one reminder run claims per transaction. */
const REMINDER_BATCH = 100;

/**
 * The daily expiry reminder (jobs/warranty-reminders): for every extended warranty ending within
 * WARRANTY_REMINDER_DAYS days of `now` (+05:30 days, today included) that was not reminded yet,
 * queues one SMS to its buyer in the transaction that marks it reminded (so each activation gets
 * one, across runs and server processes), then hands the SMS to the outbox. Returns how many were
 * queued.
 */
export const sendWarrantyExpiryReminders = async (
  deps: { db: Db; sms: SmsOutbox },
  now: Date = new Date(),
): Promise<number> => {
  const today = istDate(now);
  const lastDay = addDays(today, WARRANTY_REMINDER_DAYS);
  const companies = new Map<number, string>();
  let queued = 0;
  for (;;) {
    const smsIds = await deps.db.transaction(async (tx) => {
      const due = await claimWarrantyRemindersDue(tx, { today, lastDay, limit: REMINDER_BATCH, at: now });
      const ids: number[] = [];
      for (const warranty of due) {
        let company = companies.get(warranty.orgId);
        if (company === undefined) {
          company = (await getOrgAppConfig(tx, warranty.orgId)).companyName;
          companies.set(warranty.orgId, company);
        }
        const phone = warranty.imei ? ` (IMEI ${warranty.imei})` : '';
        ids.push(
          await deps.sms.queueSms(tx, {
            orgId: warranty.orgId,
            mobile: warranty.mobile,
            purpose: 'WARRANTY_EXPIRY',
            content: {
              kind: 'WARRANTY_EXPIRY',
              variables: {
                company,
                name: warranty.firstName,
                code: warranty.code,
                imei: phone,
                endsOn: formatCalendarDate(warranty.endsOn),
              },
            },
          }),
        );
      }
      return ids;
    });
    for (const id of smsIds) deps.sms.deliverInBackground(id);
    queued += smsIds.length;
    if (smsIds.length < REMINDER_BATCH) return queued;
  }
};
