import { randomInt } from 'node:crypto';
import { AppType } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { addDays, istDate } from '@kisht/domain/common/time';
import {
  planTermEnd,
  type TActivationsQuery,
  type TPlan,
  type TPlanActivation,
  type TPlansQuery,
  type TRedeemActivationResponse,
  type TSavePlanRequest,
  type TSellPlanResponseItem,
  ZRedeemActivationRequest,
  ZSavePlanRequest,
  ZSellPlanRequest,
} from '@kisht/domain/plans/plans.schema';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findUser } from '../auth/auth.service';
import { findProduct } from '../catalogue/catalogue.service';
import { spendPlanKey } from '../ledger/ledger.service';
import { findCustomerForActor, isOwnLoanOfCustomerUser } from '../scope/scope.service';
import { visibleRetailerIds } from '../users/users.service';
import * as repo from './plans.repository';

const toPlan = (row: repo.PlanRow): TPlan => ({
  id: row.id,
  name: row.name,
  appType: row.appType,
  pricePaise: row.pricePaise,
  durationMonths: row.durationMonths,
  description: row.description,
  isActive: row.isActive,
  productIds: row.productIds,
});

const toActivation = (row: repo.ActivationRow): TPlanActivation => ({
  id: row.id,
  planId: row.planId,
  planName: row.planName,
  appType: row.appType,
  retailerId: row.retailerId,
  customerId: row.customerId,
  productId: row.productId,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  mobile: row.mobile,
  imei: row.imei,
  code: row.code,
  pricePaise: row.pricePaise,
  startsOn: row.startsOn,
  endsOn: row.endsOn,
  status: row.status,
  redeemedAt: row.redeemedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  customerStatus: row.customerStatus ?? null,
});

const planNotFound = () =>
  new AppError(AppErrorCode.PLAN_NOT_FOUND, 'Plan not found', [
    { field: 'plan_id', message: 'No such plan' },
  ]);

/** Plans are the sellers' and the admin's catalogue; a customer user gets FORBIDDEN. */
const assertCatalogueReader = (actor: TActor) => {
  if (actor.userType === 'customer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers can see plans');
};

/**
 * The organisation's plans (GET /api/plans, get_plans_familycare, get_plans_antihacking): of one
 * app_type or of `appTypes`, for one product; active ones only, except for the admin, who edits
 * them. Throws FORBIDDEN for a customer user, PRODUCT_NOT_FOUND (field product_id) for a product
 * outside the organisation.
 */
export const listPlans = async (
  db: DbOrTx,
  actor: TActor,
  query: TPlansQuery & { appTypes?: readonly number[] },
): Promise<TPlan[]> => {
  assertCatalogueReader(actor);
  if (query.product_id !== undefined && !(await findProduct(db, actor, query.product_id)))
    throw new AppError(AppErrorCode.PRODUCT_NOT_FOUND, 'Product not found', [
      { field: 'product_id', message: 'No such product' },
    ]);
  const appTypes = query.app_type !== undefined ? [query.app_type] : query.appTypes;
  const rows = await repo.listPlans(db, actor.orgId, {
    appTypes,
    productId: query.product_id,
    includeInactive: actor.userType === 'admin',
  });
  return rows.map(toPlan);
};

/** One plan (plans/readById). Throws PLAN_NOT_FOUND (404) for another organisation's or an inactive one (admins see inactive). */
export const readPlan = async (db: DbOrTx, actor: TActor, planId: number): Promise<TPlan> => {
  assertCatalogueReader(actor);
  const row = await repo.findPlan(db, actor.orgId, planId);
  if (!row || (!row.isActive && actor.userType !== 'admin')) throw planNotFound();
  return toPlan(row);
};

/**
 * The organisation admin creates a plan (no plan_id) or edits one (plan_id), with the products it applies
 * to (none: all). Throws FORBIDDEN for anyone but the admin, PLAN_NOT_FOUND for another
 * organisation's plan, PRODUCT_NOT_FOUND (field productIds) for a product outside the organisation.
 * Audited.
 */
export const savePlan = async (db: Db, actor: TActor, input: TSavePlanRequest): Promise<TPlan> => {
  if (actor.userType !== 'admin') throw new AppError(AppErrorCode.FORBIDDEN, 'Only an admin can edit plans');
  const request = ZSavePlanRequest.parse(input);
  for (const productId of request.productIds)
    if (!(await findProduct(db, actor, productId)))
      throw new AppError(AppErrorCode.PRODUCT_NOT_FOUND, 'Product not found', [
        { field: 'productIds', message: `No product ${productId} in your catalogue` },
      ]);
  const values = {
    name: request.name,
    appType: request.appType,
    pricePaise: request.pricePaise,
    durationMonths: request.durationMonths,
    description: request.description,
    isActive: request.isActive,
  };
  const planId = await db.transaction(async (tx) => {
    let id = request.plan_id;
    if (id === undefined)
      id = await repo.insertPlan(tx, { ...values, orgId: actor.orgId }, request.productIds);
    else if (!(await repo.updatePlan(tx, actor.orgId, id, values, request.productIds))) throw planNotFound();
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: request.plan_id === undefined ? 'plan.create' : 'plan.update',
      entity: 'plan',
      entityId: String(id),
      details: { ...values, productIds: request.productIds },
    });
    return id;
  });
  return toPlan((await repo.findPlan(db, actor.orgId, planId))!);
};

/** Crockford's base 32: digits and capitals without I, L, O and U. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A fresh activation code, `XXXX-XXXX-XXXX` (60 bits from the system's CSPRNG). */
export const generateActivationCode = (): string => {
  const letters = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8)}`;
};

/** How far a plan's start date may lie from today (+05:30), in days. */
const MAX_START_DAYS_BACK = 365;
const MAX_START_DAYS_AHEAD = 30;

const fieldError = (code: keyof typeof AppErrorCode, field: string, message: string) =>
  new AppError(AppErrorCode[code], message, [{ field, message }]);

/**
 * Sells a plan (spec §3 "add anti-hacking customer", for every plan app_type): checks the plan
 * (active, of the organisation; `app_type`, when sent, must be the plan's), the product it must
 * apply to and the customer (in the actor's scope), works out the term (start date, default today
 * +05:30, within the last 365 days and the next 30; end = start + duration − 1 day), writes the activation with a fresh code and spends one
 * key of the plan's app_type, all in one transaction, audited. An extended warranty needs an IMEI
 * (the customer's phone's when a customer is named). Returns spec §3's data[0].antihacking_code.
 * Throws FORBIDDEN (customers, admins), PLAN_NOT_FOUND, PRODUCT_NOT_FOUND, CUSTOMER_NOT_FOUND,
 * PLAN_NOT_APPLICABLE (409, field product_id), VALIDATION_FAILED (app_type, imei), NO_KEYS (409).
 */
export const sellPlan = async (
  db: Db,
  actor: TActor,
  input: z.input<typeof ZSellPlanRequest>,
): Promise<TSellPlanResponseItem> => {
  await visibleRetailerIds(db, actor);
  const request = ZSellPlanRequest.parse(input);
  // The customer first: another retailer's customer answers 404 whatever the other ids are.
  const customer =
    request.customer_id === undefined ? null : await findCustomerForActor(db, actor, request.customer_id);
  const plan = await repo.findPlan(db, actor.orgId, request.plan_id);
  if (!plan?.isActive) throw planNotFound();
  if (request.app_type != null && request.app_type !== plan.appType)
    throw fieldError('VALIDATION_FAILED', 'app_type', `This plan is of app type ${plan.appType}`);
  const productId = request.product_id ?? customer?.customer.productId ?? null;
  if (request.product_id !== undefined && !(await findProduct(db, actor, request.product_id)))
    throw fieldError('PRODUCT_NOT_FOUND', 'product_id', 'No such product');
  if (plan.productIds.length > 0 && (productId === null || !plan.productIds.includes(productId)))
    throw fieldError('PLAN_NOT_APPLICABLE', 'product_id', 'This plan does not cover this phone model');
  const imei = request.imei ?? customer?.device.imei1 ?? null;
  if (plan.appType === AppType.EXTENDED_WARRANTY && imei === null)
    throw fieldError('VALIDATION_FAILED', 'imei', 'Enter the IMEI of the phone the warranty covers');
  const today = istDate();
  const startsOn = request.start_date ?? today;
  // A plan starts with the phone's sale: at most a year back (a phone bought earlier) or a month ahead.
  if (startsOn < addDays(today, -MAX_START_DAYS_BACK) || startsOn > addDays(today, MAX_START_DAYS_AHEAD))
    throw fieldError(
      'VALIDATION_FAILED',
      'start_date',
      `The start date must be within the last ${MAX_START_DAYS_BACK} days and at most ${MAX_START_DAYS_AHEAD} days ahead`,
    );
  const endsOn = planTermEnd(startsOn, plan.durationMonths);

  const activationId = await db.transaction(async (tx) => {
    let id: number | null = null;
    for (let attempt = 0; id === null; attempt += 1) {
      if (attempt === 5) throw new AppError(AppErrorCode.INTERNAL, 'Could not make a unique code');
      id = await repo.insertActivation(tx, {
        orgId: actor.orgId,
        planId: plan.id,
        appType: plan.appType,
        retailerId: actor.userId,
        customerId: customer?.customer.id ?? null,
        productId,
        firstName: request.firstName,
        lastName: request.lastName,
        email: request.email ?? null,
        mobile: request.mobile,
        imei,
        code: generateActivationCode(),
        pricePaise: plan.pricePaise,
        startsOn,
        endsOn,
      });
    }
    await spendPlanKey(tx, {
      orgId: actor.orgId,
      retailerId: actor.userId,
      appType: plan.appType,
      planActivationId: id,
      customerId: customer?.customer.id ?? null,
      actorUserId: actor.userId,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'plan.sell',
      entity: 'plan_activation',
      entityId: String(id),
      details: { planId: plan.id, appType: plan.appType, customerId: customer?.customer.id ?? null },
    });
    return id;
  });
  const [row] = await repo.listActivations(
    db,
    { orgId: actor.orgId, retailerIds: [actor.userId] },
    { id: activationId },
  );
  const activation = toActivation(row!);
  return { antihacking_code: activation.code, activation };
};

/**
 * Plans sold that the actor may see, newest first: a retailer its own and its mini-retailers'
 * sales, a mini-retailer its own, a customer user those bought with their mobile. `customer_id`
 * must be a customer in the actor's scope (CUSTOMER_NOT_FOUND otherwise). Throws FORBIDDEN for an
 * admin.
 */
export const listActivations = async (
  db: DbOrTx,
  actor: TActor,
  query: TActivationsQuery & { id?: number },
): Promise<TPlanActivation[]> => {
  const filter = {
    appTypes: query.app_type,
    customerId: query.customer_id,
    ...(query.id === undefined ? {} : { id: query.id }),
  };
  if (actor.userType === 'customer') {
    const user = await findUser(db, actor.userId);
    const scope = { orgId: actor.orgId, mobile: user?.mobile ?? '' };
    // A customer names only a loan of their own (by their mobile); any other id answers 404.
    if (
      query.customer_id !== undefined &&
      !(await isOwnLoanOfCustomerUser(db, { ...scope, customerId: query.customer_id }))
    )
      throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');
    return (await repo.listActivations(db, scope, filter)).map(toActivation);
  }
  const retailerIds = await visibleRetailerIds(db, actor);
  if (query.customer_id !== undefined) await findCustomerForActor(db, actor, query.customer_id);
  return (await repo.listActivations(db, { orgId: actor.orgId, retailerIds }, filter)).map(toActivation);
};

/** An extended warranty whose expiry reminder is due (claimWarrantyRemindersDue). */
export type TWarrantyReminderDue = {
  id: number;
  orgId: number;
  firstName: string;
  mobile: string;
  imei: string | null;
  code: string;
  endsOn: string;
};

/**
 * Claims, in the caller's transaction, up to `limit` extended warranties (app_type 5) ending
 * between `today` and `lastDay` (+05:30 days, inclusive) whose expiry reminder was not sent (FOR
 * UPDATE SKIP LOCKED, so one server process takes each), and marks them sent at `at`. The caller
 * queues their SMS in the same transaction, so each buyer is reminded once.
 */
export const claimWarrantyRemindersDue = async (
  tx: DbOrTx,
  options: { today: string; lastDay: string; limit: number; at: Date },
): Promise<TWarrantyReminderDue[]> => {
  const rows = await repo.claimExpiringWarranties(tx, {
    appType: AppType.EXTENDED_WARRANTY,
    today: options.today,
    lastDay: options.lastDay,
    limit: options.limit,
  });
  for (const row of rows) await repo.markReminderSent(tx, row.id, options.at);
  return rows.map((row) => ({
    id: row.id,
    orgId: row.orgId,
    firstName: row.firstName,
    mobile: row.mobile,
    imei: row.imei,
    code: row.code,
    endsOn: row.endsOn ?? options.lastDay,
  }));
};

/** One activation the actor may see (see listActivations), or ACTIVATION_CODE_NOT_FOUND (404). */
export const findActivationForActor = async (
  db: DbOrTx,
  actor: TActor,
  activationId: number,
): Promise<TPlanActivation> => {
  const [found] = await listActivations(db, actor, { id: activationId });
  if (!found) throw fieldError('ACTIVATION_CODE_NOT_FOUND', 'activation_id', 'Code not found');
  return found;
};

/**
 * The app on the customer's phone redeems an activation code (public; spec-less, issue 14): in one
 * transaction the activation is taken FOR UPDATE, marked redeemed with what the phone said of
 * itself, and audited. The same phone (same IMEI or serial number) redeeming again gets the same
 * answer and changes nothing. Throws ACTIVATION_CODE_NOT_FOUND (404, field code, 'Code not found')
 * for an unknown code, ACTIVATION_ALREADY_REDEEMED (409) when another phone redeemed it, and
 * ACTIVATION_FOR_ANOTHER_PHONE (409, field imei or serialNumber) when the code was sold for
 * another phone: the IMEI taken at the sale, or the financed customer's phone (IMEIs, serial).
 */
export const redeemActivation = async (
  db: Db,
  input: z.input<typeof ZRedeemActivationRequest>,
  now: Date = new Date(),
): Promise<TRedeemActivationResponse> => {
  const request = ZRedeemActivationRequest.parse(input);
  const device: { imei?: string; serialNumber?: string; model?: string } = {};
  if (request.imei) device.imei = request.imei;
  if (request.serialNumber) device.serialNumber = request.serialNumber;
  if (request.model) device.model = request.model;
  return db.transaction(async (tx) => {
    const row = await repo.findActivationByCodeForUpdate(tx, request.orgId, request.code);
    if (!row) throw fieldError('ACTIVATION_CODE_NOT_FOUND', 'code', 'Code not found');
    const answer = (redeemedAt: Date): TRedeemActivationResponse => ({
      planName: row.planName,
      appType: row.appType,
      startsOn: row.startsOn,
      endsOn: row.endsOn,
      redeemedAt: redeemedAt.toISOString(),
    });
    if (row.status === 'redeemed') {
      const earlier = row.redeemedDevice ?? {};
      const isSamePhone =
        (device.imei !== undefined && earlier.imei === device.imei) ||
        (device.serialNumber !== undefined && earlier.serialNumber === device.serialNumber);
      if (isSamePhone) return answer(row.redeemedAt!);
      throw new AppError(
        AppErrorCode.ACTIVATION_ALREADY_REDEEMED,
        'This code was already used on another phone',
        [{ field: 'code', message: 'Already used on another phone' }],
      );
    }
    // Issue 27: a code sold for a phone (its IMEI at the sale, or the financed customer's phone)
    // is redeemed only by that phone; a stand-alone sale without an IMEI binds to none.
    const imeis = [row.imei, row.customerPhone?.imei1, row.customerPhone?.imei2].filter(
      (imei): imei is string => Boolean(imei),
    );
    const serial = row.customerPhone?.serialNumber ?? null;
    const isSoldForPhone = imeis.length > 0 || serial !== null;
    const isThatPhone =
      (device.imei !== undefined && imeis.includes(device.imei)) ||
      (device.serialNumber !== undefined && serial !== null && device.serialNumber === serial);
    if (isSoldForPhone && !isThatPhone) {
      throw new AppError(AppErrorCode.ACTIVATION_FOR_ANOTHER_PHONE, 'This code was sold for another phone', [
        {
          field: device.imei !== undefined ? 'imei' : 'serialNumber',
          message: 'Not the phone this code was sold for',
        },
      ]);
    }
    await repo.markRedeemed(tx, row.id, device, now);
    await insertAudit(tx, {
      orgId: row.orgId,
      actorUserId: null,
      action: 'plan.redeem',
      entity: 'plan_activation',
      entityId: String(row.id),
      details: device,
    });
    return answer(now);
  });
};
