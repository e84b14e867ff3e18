import { statusWord, type TCustomerStatus } from '@kisht/domain/common/enums';
import { AppError } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import { instalmentStatus, outstandingPaise } from '@kisht/domain/emi/emi.rules';
import type { TPaymentReceipt } from '@kisht/domain/emi/emi.schema';
import { PARTNER_COMMAND_FEATURE } from '@kisht/domain/partner-api/partner-api.rules';
import type {
  TPartnerLoan,
  TPartnerPaymentRequest,
  ZPartnerCommandRequest,
  ZPartnerCreateLoan,
} from '@kisht/domain/partner-api/partner-api.schema';
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { recordLenderConsent, requireCurrentConsentText } from '../customers/consent.service';
import { createCustomer } from '../customers/customers.service';
import { sendControlCommand } from '../devices/control-commands.service';
import { issueEnrolmentQr } from '../devices/enrolment.service';
import { recordPayment } from '../emi/emi.service';
import { findCustomerForActor } from '../scope/scope.service';
import * as repo from './partner-api.repository';

/*
 * The partner API's calls (issue 30, docs/partner-api.md): a lender's server, as the key's actor
 * (partner-keys.service authenticatePartnerKey), through the same services and command gate as
 * the app, so every rule (scope, consent, keys, the gate's refusals) holds alike.
 */

/**
 * A customer's loan and phone as the partner API answers it, in two reads: the customer with the
 * phone (scoped to the actor: another organisation's id answers CUSTOMER_NOT_FOUND, 404) and the
 * instalments. What is owed and overdue is as of today (+05:30).
 */
export const getPartnerLoan = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TPartnerLoan> => {
  const { customer, device } = await findCustomerForActor(db, actor, customerId);
  const instalments = await repo.findInstalments(db, customer.orgId, customer.id);
  const today = istDate();
  return {
    customerId: customer.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    mobile: customer.mobile,
    status: statusWord(customer.status as TCustomerStatus),
    loanAmountPaise: customer.loanAmountPaise,
    tenureMonths: customer.tenureMonths,
    outstandingPaise: instalments.reduce((total, i) => total + outstandingPaise(i), 0),
    overduePaise: instalments
      .filter((i) => instalmentStatus(i, today) === 'overdue')
      .reduce((total, i) => total + outstandingPaise(i), 0),
    instalments: instalments.map((i) => ({
      id: i.id,
      instalmentNo: i.instalmentNo,
      dueDate: i.dueDate,
      amountPaise: i.amountPaise,
      paidPaise: i.paidPaise,
    })),
    device: {
      imei1: device.imei1,
      imei2: device.imei2,
      enrolledAt: device.enrolledAt?.toISOString() ?? null,
      isLocked: device.reportedLocked,
      isOnline: device.isOnline,
      lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
      paidThrough: device.desiredPaidThrough?.toISOString() ?? null,
    },
  };
};

/**
 * Creates the customer, phone and loan (add_customer's rules: createCustomer, booked under the
 * key's retailer, whose enrolment key it will spend) with the consent the lender recorded. The
 * consent's text version is checked first, so a refusal writes nothing. Throws as createCustomer
 * (fields under `customer.`) and VALIDATION_FAILED naming consent.textVersion.
 */
export const createPartnerLoan = async (
  ctx: Pick<AppContext, 'db'>,
  actor: TActor,
  request: z.output<typeof ZPartnerCreateLoan>,
): Promise<TPartnerLoan> => {
  requireCurrentConsentText(request.consent.textVersion, 'consent.textVersion');
  let customerId: number;
  try {
    customerId = await createCustomer(ctx.db, { actor, request: request.customer });
  } catch (error) {
    throw nestFields(error, 'customer');
  }
  await recordLenderConsent(ctx.db, { actor, customerId, consent: request.consent });
  return getPartnerLoan(ctx.db, actor, customerId);
};

/** The error with its field names under `prefix.` (the partner body nests add_customer's fields). */
const nestFields = (error: unknown, prefix: string): unknown =>
  error instanceof AppError && error.fields
    ? new AppError(
        error.code,
        error.message,
        error.fields.map((f) => ({ ...f, field: `${prefix}.${f.field}` })),
      )
    : error;

/**
 * The enrolment QR of an inactive customer (issueEnrolmentQr: reserves the retailer's key; needs
 * the consent), with the QR as a PNG data URL. Throws CUSTOMER_NOT_FOUND outside scope and as
 * issueEnrolmentQr (ALREADY_ENROLLED, CONSENT_REQUIRED, NO_KEYS, MDM_UNAVAILABLE).
 */
export const getPartnerEnrolmentQr = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number; baseUrl: string },
) => {
  const { customer, device } = await findCustomerForActor(ctx.db, options.actor, options.customerId);
  const qr = await issueEnrolmentQr(ctx, {
    actor: options.actor,
    device,
    customer,
    baseUrl: options.baseUrl,
  });
  const pngDataUrl = await QRCode.toDataURL(qr.payload, { errorCorrectionLevel: 'M', margin: 2, width: 512 });
  return { payload: qr.payload, expiresAt: qr.expiresAt, pngDataUrl };
};

/**
 * Lock, unlock or release through the command gate (sendControlCommand): the same refusals as a
 * person's (409 LOAN_COMPLETED for a paid-up customer's lock, 409 DEVICE_RELEASED, 400 naming
 * reason_category, 409 DEVICE_NOT_ENROLLED…) and the key's retailer's access flags.
 */
export const sendPartnerCommand = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number; request: z.output<typeof ZPartnerCommandRequest> },
) => {
  const { feature, enable } = PARTNER_COMMAND_FEATURE[options.request.command];
  const command = await sendControlCommand(ctx, {
    actor: options.actor,
    customerId: options.customerId,
    feature,
    enable,
    reason: { category: options.request.reason_category, note: options.request.reason },
  });
  return { id: command.id, name: command.name, state: command.state, createdAt: command.createdAt };
};

/**
 * Records money the lender received (recordPayment): applied to the loan's oldest unpaid
 * instalments first; with the Idempotency-Key a retry answers the first receipt; the phone is
 * unlocked when nothing is overdue any more, and the payoff frees it. Throws CUSTOMER_NOT_FOUND
 * outside scope, INVALID_PAYMENT (field amountPaise) above what the loan owes,
 * IDEMPOTENCY_KEY_REUSED (422) for the key with another request.
 */
export const recordPartnerPayment = async (
  ctx: AppContext,
  options: { actor: TActor; customerId: number; request: TPartnerPaymentRequest; idempotencyKey: string },
): Promise<TPaymentReceipt> => {
  return recordPayment(ctx, {
    actor: options.actor,
    request: {
      customer_id: options.customerId,
      emi_ids: 'all',
      amountPaise: options.request.amountPaise,
      mode: options.request.mode,
      ...(options.request.reference ? { reference: options.request.reference } : {}),
    },
    idempotencyKey: options.idempotencyKey,
    autoUnlock: true,
  });
};
