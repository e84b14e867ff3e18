import {
  CUSTOMER_STATUS_WORDS,
  CustomerStatus,
  type TCustomerStatus,
  type TCustomerStatusWord,
} from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type {
  TCustomerDetails,
  TCustomerPage,
  ZCreateCustomerRequest,
  ZCustomerListQuery,
} from '@kisht/domain/customers/customers.schema';
import { addMonthsToDate, buildEmiSchedule } from '@kisht/domain/emi/emi.rules';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findFinancer, findProduct } from '../catalogue/catalogue.service';
import { isKnownPlace } from '../catalogue/csc.service';
import type { DeviceRow } from '../devices/devices.repository';
import { getDeviceSummary } from '../devices/devices.service';
import { createCustomerLogin, visibleRetailerIds } from '../users/users.service';
import * as repo from './customers.repository';

/** The actor's customer scope: organisation and visible retailers. Throws FORBIDDEN for customers. */
export const scopeOf = async (db: DbOrTx, actor: TActor): Promise<repo.CustomerScope> => ({
  orgId: actor.orgId,
  retailerIds: await visibleRetailerIds(db, actor),
});

const todayUtc = () => new Date().toISOString().slice(0, 10);

const notFound = () => new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');

/**
 * Creates a customer (status inactive), their device and EMI schedule in one transaction
 * (spec §2 add_customer). The actor becomes the customer's retailer. Throws PRODUCT_NOT_FOUND for a
 * product outside the organisation, INVALID_LOAN_TERMS when the loan exceeds price − down
 * payment, IMEI_IN_USE when either IMEI is already on a device of the organisation.
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
  const schedule = buildEmiSchedule({
    principalPaise: request.loanAmountPaise,
    annualRateBps: request.annualRateBps,
    tenureMonths: request.tenureMonths,
    firstDueDate: request.firstDueDate ?? addMonthsToDate(todayUtc(), 1),
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

/** One page of the actor's customers (spec §2 customer_list), newest first. */
export const listCustomers = async (
  db: DbOrTx,
  options: { actor: TActor; query: z.output<typeof ZCustomerListQuery> },
): Promise<TCustomerPage> => {
  const { query } = options;
  const scope = await scopeOf(db, options.actor);
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

/** A customer in the actor's scope with device and raw row, or CUSTOMER_NOT_FOUND (other tenants too). */
export const findCustomerForActor = async (db: DbOrTx, actor: TActor, customerId: number) => {
  const found = await repo.findCustomer(db, await scopeOf(db, actor), customerId);
  if (!found) throw notFound();
  return found as { customer: typeof found.customer; device: DeviceRow; product: typeof found.product };
};

/** Everything customer_details shows: loan, schedule, device state and pending command. */
export const getCustomerDetails = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TCustomerDetails> => {
  const { customer, device, product } = await findCustomerForActor(db, actor, customerId);
  const [emiRows, deviceSummary, financer] = await Promise.all([
    repo.findEmis(db, customer.id),
    getDeviceSummary(db, device),
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
    lockStatus: deviceSummary.lockStatus,
    appType: customer.appType,
    deviceType: customer.deviceType,
    createdAt: customer.createdAt.toISOString(),
    dateOfBirth: customer.dateOfBirth,
    address: customer.address,
    serialNumber: device.serialNumber,
    financerName: financer?.name ?? null,
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
    device: deviceSummary,
    emis: emiRows.map((e) => ({
      id: e.id,
      instalmentNo: e.instalmentNo,
      dueDate: e.dueDate,
      amountPaise: e.amountPaise,
      principalPaise: e.principalPaise,
      interestPaise: e.interestPaise,
      paidPaise: e.paidPaise,
    })),
  };
};

/** Dashboard counts of the actor's customers by status word (spec §4). */
export const getDashboard = async (db: DbOrTx, actor: TActor): Promise<TDashboard> => {
  const rows = await repo.countCustomersByStatus(db, await scopeOf(db, actor));
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

/** Marks a loan fully paid: status 5, EMIs completed (spec §4). */
export const markLoanCompleted = async (db: DbOrTx, orgId: number, customerId: number): Promise<void> => {
  await repo.updateCustomerStatus(db, orgId, customerId, CustomerStatus.EMI_COMPLETED);
};

/** Moves an inactive customer to installed (status 1) once their phone enrols. */
export const markCustomerInstalled = async (db: DbOrTx, orgId: number, customerId: number): Promise<void> => {
  await repo.updateCustomerStatus(db, orgId, customerId, CustomerStatus.INSTALL);
};
