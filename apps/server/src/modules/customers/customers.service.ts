import { productPlatformOf } from '@kisht/domain/catalogue/catalogue.schema';
import { isHdbFinancer } from '@kisht/domain/catalogue/financer-handoff.schema';
import {
  CUSTOMER_STATUS_WORDS,
  CustomerStatus,
  type TCustomerStatus,
  type TCustomerStatusWord,
} from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import {
  CUSTOMER_STATUS_TRANSITIONS,
  canTransitionStatus,
  manualEventFor,
  type TCustomerStatusEvent,
} from '@kisht/domain/customers/customer-status';
import type {
  TAddress,
  TCustomerAddress,
  TCustomerDetails,
  TCustomerPage,
  TLoanDefaults,
  TPushRefusal,
  TStatusChange,
  ZCreateCustomerRequest,
  ZCustomerListQuery,
  ZUpdateImeiRequest,
} from '@kisht/domain/customers/customers.schema';
import { channelOfDeviceType } from '@kisht/domain/devices/device-families';
import { addMonthsToDate, buildEmiSchedule } from '@kisht/domain/emi/emi.rules';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findFinancer, findProduct } from '../catalogue/catalogue.service';
import { isKnownPlace, listCountries, listStates } from '../catalogue/csc.service';
import { assertCanEnrol } from '../ledger/ledger.service';
import { getOrgSettings } from '../orgs/orgs.service';
import { currentPushRefusal } from '../push/push-refusal.service';
import { findCustomerForActor, scopeOf } from '../scope/scope.service';
import { createCustomerLogin, requireAccess, scopedRetailerIds } from '../users/users.service';
import * as repo from './customers.repository';

/**
 * Creates a customer (status inactive), their device and EMI schedule in one transaction
 * (spec §2 add_customer). The actor becomes the customer's retailer. Throws PRODUCT_NOT_FOUND for a
 * product outside the organisation, VALIDATION_FAILED (field productId) for a phone of another
 * device family than the customer's (productPlatformOf), INVALID_LOAN_TERMS when the loan exceeds price − down
 * payment, IMEI_IN_USE when either IMEI is already on a device of the organisation, NO_KEYS when
 * the retailer holds no key of the app_type and this IMEI was never charged for it (a check only).
 */
export const createCustomer = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZCreateCustomerRequest> },
): Promise<number> => {
  const { actor, request } = options;
  await scopeOf(db, actor); // refuses actors who cannot own customers
  const product = await findProduct(db, actor, request.productId);
  if (!product) {
    throw new AppError(AppErrorCode.PRODUCT_NOT_FOUND, 'Product not found', [
      { field: 'productId', message: 'Choose a product from the catalogue' },
    ]);
  }
  // An iPhone is financed as an Apple customer, any other phone as an Android one (issue 28).
  if (product.platform !== productPlatformOf(request.deviceType)) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, "This phone is not of the customer's device family", [
      {
        field: 'productId',
        message:
          product.platform === 'ios'
            ? 'An iPhone is financed as an Apple customer: choose Apple as the device family'
            : 'Choose an iPhone for an Apple customer',
      },
    ]);
  }
  if (request.financerId !== undefined && !(await findFinancer(db, actor, request.financerId))) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Financer not found', [
      { field: 'financerId', message: 'Choose a financer from the list' },
    ]);
  }
  if (request.address && !isKnownPlace(request.address)) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Choose the country, state and city from the lists', [
      { field: 'address.city', message: 'Choose a city of the chosen state' },
    ]);
  }
  if (request.loanAmountPaise > request.pricePaise - request.downPaymentPaise) {
    throw new AppError(
      AppErrorCode.INVALID_LOAN_TERMS,
      'Loan amount cannot exceed price minus down payment',
      [{ field: 'loanAmountPaise', message: 'Loan amount cannot exceed price minus down payment' }],
    );
  }
  // Enrolling will cost a key of this app_type (reserved when the QR is made): refuse early without one.
  await assertCanEnrol(db, {
    orgId: actor.orgId,
    retailerId: actor.userId,
    appType: request.appType,
    imei: request.imei1,
  });
  const schedule = buildEmiSchedule({
    principalPaise: request.loanAmountPaise,
    annualRateBps: request.annualRateBps,
    tenureMonths: request.tenureMonths,
    firstDueDate: request.firstDueDate ?? addMonthsToDate(istDate(), 1),
    method: request.interestMethod,
  });
  return db.transaction(async (tx) => {
    const taken = await repo.findDevicesByImeis(tx, actor.orgId, [request.imei1, request.imei2]);
    const takenImeis = new Set(taken.flatMap((d) => [d.imei1, d.imei2]));
    const fields = (['imei1', 'imei2'] as const)
      .filter((f) => takenImeis.has(request[f]))
      .map((field) => ({ field, message: 'This IMEI is already registered' }));
    if (fields.length > 0)
      throw new AppError(AppErrorCode.IMEI_IN_USE, 'This IMEI is already registered', fields);

    const customerId = await repo.insertCustomer(tx, {
      orgId: actor.orgId,
      retailerId: actor.userId,
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email ?? null,
      mobile: request.mobile,
      status: CustomerStatus.INACTIVE,
      appType: request.appType,
      deviceType: request.deviceType,
      productId: product.id,
      pricePaise: request.pricePaise,
      downPaymentPaise: request.downPaymentPaise,
      loanAmountPaise: request.loanAmountPaise,
      annualRateBps: request.annualRateBps,
      tenureMonths: request.tenureMonths,
      emiPaise: schedule[0]!.amountPaise,
      interestMethod: request.interestMethod,
      processingFeePaise: request.processingFeePaise,
      financerId: request.financerId ?? null,
      // HDB customers are also created with HDB (modules/financers: its job sends pending ones).
      financerHandoffStatus:
        request.financerId !== undefined &&
        isHdbFinancer((await findFinancer(tx, actor, request.financerId))?.name)
          ? 'pending'
          : null,
      dateOfBirth: request.dateOfBirth ?? null,
      address: request.address ?? null,
    });
    await repo.insertDevice(tx, {
      id: uuidv7(),
      orgId: actor.orgId,
      customerId,
      imei1: request.imei1,
      imei2: request.imei2,
      serialNumber: request.serialNumber ?? null,
      channel: channelOfDeviceType(request.deviceType),
    });
    await createCustomerLogin(tx, {
      orgId: actor.orgId,
      mobile: request.mobile,
      name: `${request.firstName} ${request.lastName}`,
    });
    await repo.insertEmis(
      tx,
      schedule.map((i) => ({
        orgId: actor.orgId,
        customerId,
        instalmentNo: i.instalmentNo,
        dueDate: i.dueDate,
        amountPaise: i.amountPaise,
        principalPaise: i.principalPaise,
        interestPaise: i.interestPaise,
      })),
    );
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'customer.create',
      entity: 'customer',
      entityId: String(customerId),
      details: { loanAmountPaise: request.loanAmountPaise, tenureMonths: request.tenureMonths },
    });
    return customerId;
  });
};

/**
 * One page of the actor's customers (spec §2 customer_list), newest first; with `retailer_id` only
 * that retailer's (NOT_FOUND, field retailer_id, unless it is one the actor sees).
 */
export const listCustomers = async (
  db: DbOrTx,
  options: { actor: TActor; query: z.output<typeof ZCustomerListQuery> },
): Promise<TCustomerPage> => {
  const { query } = options;
  const scope = {
    orgId: options.actor.orgId,
    retailerIds: await scopedRetailerIds(db, options.actor, query.retailer_id),
  };
  const status = query.status === 'all' ? undefined : CUSTOMER_STATUS_WORDS.indexOf(query.status);
  const { rows, total } = await repo.listCustomers(db, scope, {
    search: query.search,
    status,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      mobile: row.mobile,
      imei1: row.imei1,
      productName: `${row.productBrand} ${row.productName}`,
      status: row.status as TCustomerStatus,
      lockStatus: row.reportedLocked ? 1 : 0,
      createdAt: row.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
};

/**
 * A stored address with its country and state named in full from the country-state-city data the
 * csc routes serve (the code where the data does not know it), so every screen writes it the same
 * way (domain formatAddress).
 */
export const withPlaceNames = (address: TAddress): TCustomerAddress => ({
  ...address,
  countryName: listCountries().find((c) => c.code === address.countryCode)?.name ?? address.countryCode,
  stateName:
    listStates(address.countryCode).find((s) => s.code === address.stateCode)?.name ?? address.stateCode,
});

/**
 * The loan terms add_customer starts with: the organisation's annual rate (settings
 * defaultAnnualRateBps, 0 when unset). Throws FORBIDDEN for customers.
 */
export const getLoanDefaults = async (db: DbOrTx, actor: TActor): Promise<TLoanDefaults> => {
  await scopeOf(db, actor); // refuses actors who cannot own customers
  return { annualRateBps: (await getOrgSettings(db, actor.orgId)).defaultAnnualRateBps };
};

/**
 * A customer as customer_details shows it, less the device summary (composed above,
 * customer-details), plus what the device summary carries of the phone's push-token refusal
 * (read here, in the same statement as the schedule: issue 27 within issue 26's budget).
 */
export type TCustomerRecord = Omit<TCustomerDetails, 'device' | 'lockStatus'> & {
  pushRefusal: TPushRefusal | null;
};

/**
 * Everything customer_details shows of a customer the actor's scope found (scope.service
 * findCustomerForActor): loan, schedule, identity, financer, photo, and whether FCM refused the
 * phone's current push token (push-refusal.service currentPushRefusal). The customer-details
 * module adds the device summary (devices), so this module needs none of the device module.
 */
export const getCustomerRecord = async (
  db: DbOrTx,
  actor: TActor,
  found: Awaited<ReturnType<typeof findCustomerForActor>>,
): Promise<TCustomerRecord> => {
  const { customer, device, product } = found;
  const [{ emis: emiRows, photoPath: photoImageName, pushRefusal }, financer] = await Promise.all([
    repo.findDetailsExtras(db, { orgId: customer.orgId, customerId: customer.id, deviceId: device.id }),
    customer.financerId ? findFinancer(db, actor, customer.financerId) : null,
  ]);
  return {
    id: customer.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    mobile: customer.mobile,
    email: customer.email,
    imei1: device.imei1,
    imei2: device.imei2,
    productId: product.id,
    productName: `${product.brand} ${product.name}`,
    status: customer.status as TCustomerStatus,
    appType: customer.appType,
    deviceType: customer.deviceType,
    createdAt: customer.createdAt.toISOString(),
    dateOfBirth: customer.dateOfBirth,
    address: customer.address ? withPlaceNames(customer.address) : null,
    serialNumber: device.serialNumber,
    financerName: financer?.name ?? null,
    financerReference: customer.financerReference,
    financerHandoffStatus: customer.financerHandoffStatus,
    photoImageName,
    loan: {
      interestMethod: customer.interestMethod,
      processingFeePaise: customer.processingFeePaise,
      pricePaise: customer.pricePaise,
      downPaymentPaise: customer.downPaymentPaise,
      loanAmountPaise: customer.loanAmountPaise,
      annualRateBps: customer.annualRateBps,
      tenureMonths: customer.tenureMonths,
      emiPaise: customer.emiPaise,
    },
    emis: emiRows.map((e) => ({
      id: e.id,
      instalmentNo: e.instalmentNo,
      dueDate: e.dueDate,
      amountPaise: e.amountPaise,
      principalPaise: e.principalPaise,
      interestPaise: e.interestPaise,
      paidPaise: e.paidPaise,
    })),
    uninstallLatitude: device.uninstallLocation?.latitude ?? null,
    uninstallLongitude: device.uninstallLocation?.longitude ?? null,
    pushRefusal: currentPushRefusal(pushRefusal, device.pushToken),
  };
};

/**
 * Dashboard counts of the actor's customers by status word (spec §4); with `retailerId` only that
 * retailer's (NOT_FOUND, field retailer_id, unless it is one the actor sees).
 */
export const getDashboard = async (db: DbOrTx, actor: TActor, retailerId?: number): Promise<TDashboard> => {
  const rows = await repo.countCustomersByStatus(db, {
    orgId: actor.orgId,
    retailerIds: await scopedRetailerIds(db, actor, retailerId),
  });
  const countsByStatus = Object.fromEntries(CUSTOMER_STATUS_WORDS.map((w) => [w, 0])) as Record<
    TCustomerStatusWord,
    number
  >;
  let total = 0;
  for (const row of rows) {
    const word = CUSTOMER_STATUS_WORDS[row.status];
    if (word) countsByStatus[word] = row.total;
    total += row.total;
  }
  return { countsByStatus, total };
};

/**
 * Applies a status event (domain customer-status: the transition table of spec §4's codes) and
 * appends it to the audit trail (action customer.status, with from, to, the event and reason). A
 * customer already in the event's status is left alone (a repeated webhook or report). A move the
 * table does not have is left alone too, for the events the system records (a payment completing
 * the loan of a phone already released stays released), or throws STATUS_CHANGE_NOT_ALLOWED (409,
 * field status) with `strict`. Returns whether the status changed.
 */
export const recordStatusChange = async (
  db: DbOrTx,
  change: {
    orgId: number;
    customerId: number;
    event: TCustomerStatusEvent;
    actorUserId: number | null;
    reason: string;
    strict?: boolean;
  },
): Promise<boolean> => {
  const from = await repo.findCustomerStatus(db, change.orgId, change.customerId);
  const to = CUSTOMER_STATUS_TRANSITIONS[change.event].to;
  if (from === null || from === to) return false;
  if (!canTransitionStatus(from, change.event)) {
    if (!change.strict) return false;
    throw new AppError(AppErrorCode.STATUS_CHANGE_NOT_ALLOWED, 'This status change is not allowed', [
      { field: 'status', message: `A customer in status ${from} cannot be moved by ${change.event}` },
    ]);
  }
  await repo.updateCustomerStatus(db, change.orgId, change.customerId, to);
  await insertAudit(db, {
    orgId: change.orgId,
    actorUserId: change.actorUserId,
    action: 'customer.status',
    entity: 'customer',
    entityId: String(change.customerId),
    details: { from, to, event: change.event, reason: change.reason },
  });
  return true;
};

/** Marks a loan fully paid: event complete_loan, status 5 EMIs completed (spec §4). Returns whether it moved. */
export const markLoanCompleted = (
  db: DbOrTx,
  orgId: number,
  customerId: number,
  actorUserId: number | null,
) =>
  recordStatusChange(db, { orgId, customerId, event: 'complete_loan', actorUserId, reason: 'All EMIs paid' });

/** Moves an inactive customer to installed (event enrol, status 1) once their phone enrols. */
export const markCustomerInstalled = (db: DbOrTx, orgId: number, customerId: number) =>
  recordStatusChange(db, { orgId, customerId, event: 'enrol', actorUserId: null, reason: 'Phone enrolled' });

/**
 * Changes a customer's status by hand (see canChangeStatus) with a reason for the audit trail.
 * Throws CUSTOMER_NOT_FOUND outside scope and STATUS_CHANGE_NOT_ALLOWED for other transitions.
 */
export const changeCustomerStatus = async (
  db: Db,
  options: { actor: TActor; customerId: number; status: number; reason: string },
): Promise<void> => {
  const { customer } = await findCustomerForActor(db, options.actor, options.customerId);
  await requireAccess(db, options.actor, ['user.active_deactive']);
  const event = manualEventFor(customer.status, options.status);
  if (!event) {
    throw new AppError(AppErrorCode.STATUS_CHANGE_NOT_ALLOWED, 'This status change is not allowed', [
      { field: 'status', message: `Cannot change status ${customer.status} to ${options.status} by hand` },
    ]);
  }
  await db.transaction((tx) =>
    recordStatusChange(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      event,
      actorUserId: options.actor.userId,
      reason: options.reason,
      strict: true,
    }),
  );
};

/** The customer's status changes, newest first, from the audit trail. */
export const getStatusHistory = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TStatusChange[]> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const rows = await repo.findStatusChanges(db, customer.orgId, customer.id);
  return rows.map((row) => ({
    at: row.createdAt.toISOString(),
    fromStatus: row.details.from,
    toStatus: row.details.to,
    reason: row.details.reason,
    actorName: row.actorName,
  }));
};

/**
 * Daily rule of spec §4: installed customers whose loan ends within the organisation's maturing
 * window become EMIs maturing (6), each with an audit entry. Returns how many moved.
 */
export const markMaturingLoans = async (db: Db, today: string = istDate()): Promise<number> =>
  db.transaction(async (tx) => {
    const { from, to } = CUSTOMER_STATUS_TRANSITIONS.mature;
    const moved = await repo.updateMaturingLoans(tx, today, { from, to });
    for (const { customerId, orgId } of moved) {
      await insertAudit(tx, {
        orgId,
        action: 'customer.status',
        entity: 'customer',
        entityId: String(customerId),
        details: {
          from: from[0]!,
          to,
          event: 'mature',
          reason: 'Last EMI due within the maturing window',
        },
      });
    }
    return moved.length;
  });

/**
 * Throws IMEI_IN_USE (409, naming imei1 and/or imei2) when a device of the organisation other than
 * `exceptDeviceId` holds either IMEI (IMEI_EDIT, and the new phone of a re-enrolment).
 */
export const requireImeisFree = async (
  db: DbOrTx,
  orgId: number,
  imeis: { imei1: string; imei2: string },
  exceptDeviceId: string,
): Promise<void> => {
  const taken = await repo.findOtherDevicesByImeis(db, orgId, [imeis.imei1, imeis.imei2], exceptDeviceId);
  const takenImeis = new Set(taken.flatMap((d) => [d.imei1, d.imei2]));
  const fields = (['imei1', 'imei2'] as const)
    .filter((field) => takenImeis.has(imeis[field]))
    .map((field) => ({ field, message: 'This IMEI is already registered' }));
  if (fields.length > 0)
    throw new AppError(AppErrorCode.IMEI_IN_USE, 'This IMEI is already registered', fields);
};

/**
 * IMEI_EDIT (spec §2): corrects the phone's IMEIs and serial number, with the old and new values
 * in the audit trail. Throws CUSTOMER_NOT_FOUND outside scope, IMEI_IN_USE when another device of
 * the organisation holds either IMEI.
 */
export const updateCustomerImeis = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZUpdateImeiRequest> },
): Promise<void> => {
  const { actor, request } = options;
  const { customer, device } = await findCustomerForActor(db, actor, request.customer_id);
  await db.transaction(async (tx) => {
    await requireImeisFree(tx, customer.orgId, request, device.id);
    const after = {
      imei1: request.imei1,
      imei2: request.imei2,
      serialNumber: request.serialNumber ?? device.serialNumber,
    };
    await repo.updateDeviceIdentity(tx, device.id, after);
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'customer.imei_edit',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        before: { imei1: device.imei1, imei2: device.imei2, serialNumber: device.serialNumber },
        after,
      },
    });
  });
};
