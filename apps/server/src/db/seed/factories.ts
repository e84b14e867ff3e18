import { randomBytes } from 'node:crypto';
import type { TProductPlatform } from '@kisht/domain/catalogue/catalogue.schema';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { addDays, istDate } from '@kisht/domain/common/time';
import {
  CONSENT_TEXT_VERSION,
  formatMobileForText,
  renderConsentText,
  type TConsentLanguage,
} from '@kisht/domain/customers/consent-texts';
import { DEFAULT_PAID_THROUGH_GRACE_DAYS, paidThroughFor } from '@kisht/domain/devices/paid-through';
import { addMonthsToDate, buildEmiSchedule } from '@kisht/domain/emi/emi.rules';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { sha256Hex } from '../../lib/crypto';
import { grantKeys } from '../../modules/ledger/ledger.service';
import type { DbOrTx } from '../client';
import {
  customerConsents,
  customers,
  devices,
  emis,
  financers,
  media,
  organizations,
  planProducts,
  plans,
  products,
  users,
} from '../schema';
import { demoSignaturePng } from './demo-signature';

/**
 * Factories with overrides: they seed the demo organisation and build test data, so tests and
 * demo data agree (CODE_STYLE "Tests").
 */

export const createOrganization = async (
  db: DbOrTx,
  overrides: Partial<typeof organizations.$inferInsert> & { id: number },
) => {
  const [row] = await db
    .insert(organizations)
    .values({
      name: `Organisation ${overrides.id}`,
      companyName: `Company ${overrides.id}`,
      theme: { primaryColor: '#0b5cad', secondaryColor: '#f5a623', logoUrl: null },
      features: { witnessLayout: false, paymentGateway: false },
      ...overrides,
    })
    .returning();
  return row!;
};

/** Keys every retailer and mini-retailer made by createUser holds unless told otherwise: plenty. */
export const FACTORY_KEYS_PER_APP_TYPE = 1000;

/**
 * A user (default a retailer). Distributors, retailers and mini-retailers start with keys (issue 13: every
 * enrolment spends one): `keys` maps app_type codes to quantities, by default
 * FACTORY_KEYS_PER_APP_TYPE of every spec §1 app_type; pass `keys: {}` for none.
 */
export const createUser = async (
  db: DbOrTx,
  input: Partial<typeof users.$inferInsert> & {
    orgId: number;
    mobile: string;
    keys?: Partial<Record<number, number>>;
  },
) => {
  const { keys, ...overrides } = input;
  const [row] = await db
    .insert(users)
    .values({ userType: 'retailer', name: 'Retailer', ...overrides })
    .returning();
  if (row!.userType === 'retailer' || row!.userType === 'miniretailer' || row!.userType === 'distributor') {
    await grantKeys(db, {
      orgId: row!.orgId,
      userId: row!.id,
      keys: keys ?? Object.fromEntries(APP_TYPE_CODES.map((code) => [code, FACTORY_KEYS_PER_APP_TYPE])),
    });
  }
  return row!;
};

/** Phone models of an organisation's catalogue; `platform` defaults to android. Returns the rows. */
export const createProducts = async (
  db: DbOrTx,
  orgId: number,
  rows: { brand: string; name: string; pricePaise: number; platform?: TProductPlatform }[],
) =>
  db
    .insert(products)
    .values(rows.map((r) => ({ orgId, ...r })))
    .returning();

/**
 * Protection plans (issue 14) for an organisation; `productIds` limits a plan to those products
 * (default: every product). Returns the rows.
 */
export const createPlans = async (
  db: DbOrTx,
  orgId: number,
  rows: {
    name: string;
    appType: number;
    pricePaise: number;
    durationMonths: number;
    description?: string;
    productIds?: number[];
  }[],
) => {
  const made = [];
  for (const { productIds, ...row } of rows) {
    const [plan] = await db
      .insert(plans)
      .values({ orgId, ...row })
      .returning();
    if (productIds?.length)
      await db.insert(planProducts).values(productIds.map((productId) => ({ planId: plan!.id, productId })));
    made.push(plan!);
  }
  return made;
};

let imeiSerial = 0;
/** A fresh Luhn-valid IMEI; `seed` keeps them apart between organisations and runs. */
export const nextImei = (seed = 35_000_000): string => {
  imeiSerial += 1;
  const body = `${seed}${String(imeiSerial + Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`
    .slice(0, 14)
    .padEnd(14, '0');
  return `${body}${imeiCheckDigit(body)}`;
};

export type CustomerFactoryInput = {
  orgId: number;
  retailerId: number;
  product: { id: number; pricePaise: number };
  firstName?: string;
  lastName?: string;
  mobile?: string;
  status?: number;
  imei1?: string;
  imei2?: string;
  downPaymentPaise?: number;
  annualRateBps?: number;
  tenureMonths?: number;
  createdAt?: Date;
  isEnrolled?: boolean;
  isLocked?: boolean;
  /** How many instalments, from the first, are fully paid (default none). */
  paidInstalments?: number;
};

/** Inserts a customer with device and EMI schedule; defaults give an inactive customer. */
export const createCustomerWithLoan = async (db: DbOrTx, input: CustomerFactoryInput) => {
  const downPaymentPaise = input.downPaymentPaise ?? Math.round(input.product.pricePaise * 0.2);
  const loanAmountPaise = input.product.pricePaise - downPaymentPaise;
  const createdAt = input.createdAt ?? new Date();
  const schedule = buildEmiSchedule({
    principalPaise: loanAmountPaise,
    annualRateBps: input.annualRateBps ?? 1400,
    tenureMonths: input.tenureMonths ?? 6,
    firstDueDate: addMonthsToDate(createdAt.toISOString().slice(0, 10), 1),
  });
  const [customer] = await db
    .insert(customers)
    .values({
      orgId: input.orgId,
      retailerId: input.retailerId,
      firstName: input.firstName ?? 'Test',
      lastName: input.lastName ?? 'Customer',
      mobile: input.mobile ?? '+919800000001',
      status: input.status ?? 0,
      appType: 0,
      deviceType: 0,
      productId: input.product.id,
      pricePaise: input.product.pricePaise,
      downPaymentPaise,
      loanAmountPaise,
      annualRateBps: input.annualRateBps ?? 1400,
      tenureMonths: schedule.length,
      emiPaise: schedule[0]!.amountPaise,
      createdAt,
    })
    .returning();
  const [device] = await db
    .insert(devices)
    .values({
      id: uuidv7(),
      orgId: input.orgId,
      customerId: customer!.id,
      imei1: input.imei1 ?? nextImei(),
      imei2: input.imei2 ?? nextImei(),
      enrolledAt: input.isEnrolled ? createdAt : null,
      // A seeded phone has a secret nobody knows: it can take offline codes but cannot connect.
      secretHash: input.isEnrolled ? sha256Hex(randomBytes(32).toString('hex')) : null,
      reportedLocked: input.isLocked ?? false,
      desiredLocked: input.isLocked ?? false,
      // The paid-through date its policy would carry (device protocol §12.5), default grace days.
      desiredPaidThrough: input.isEnrolled
        ? paidThroughFor({
            status: input.status ?? 0,
            deviceType: 0,
            oldestUnpaidDueDate:
              schedule.find((i) => i.instalmentNo > (input.paidInstalments ?? 0))?.dueDate ?? null,
            graceDays: DEFAULT_PAID_THROUGH_GRACE_DAYS,
          })
        : null,
    })
    .returning();
  await db.insert(emis).values(
    schedule.map((i) => ({
      orgId: input.orgId,
      customerId: customer!.id,
      instalmentNo: i.instalmentNo,
      dueDate: i.dueDate,
      amountPaise: i.amountPaise,
      principalPaise: i.principalPaise,
      interestPaise: i.interestPaise,
      paidPaise: i.instalmentNo <= (input.paidInstalments ?? 0) ? i.amountPaise : 0,
    })),
  );
  await db
    .insert(users)
    .values({
      orgId: input.orgId,
      mobile: customer!.mobile,
      name: `${customer!.firstName} ${customer!.lastName}`,
      userType: 'customer',
    })
    .onConflictDoNothing({ target: [users.orgId, users.mobile, users.userType] });
  return { customer: customer!, device: device! };
};

export const createFinancers = (db: DbOrTx, orgId: number, names: string[]) =>
  db
    .insert(financers)
    .values(names.map((name) => ({ orgId, name })))
    .returning();

/**
 * A customer's recorded consent to remote locking, as the add-customer flow records it (the
 * enrolment QR needs one): the domain's consent text of CONSENT_TEXT_VERSION in `language`
 * (English by default) naming the customer, phone, retailer and lender, recorded by the retailer
 * when the loan was made, signed with a drawn signature stored as a customer_signature PNG.
 */
export const createCustomerConsent = async (
  db: DbOrTx,
  input: {
    customer: { id: number; orgId: number; firstName: string; lastName: string; createdAt: Date };
    product: { brand: string; name: string };
    retailer: { id: number; name: string; mobile: string };
    /** The lender the text names: the organisation's company name. */
    companyName: string;
    language?: TConsentLanguage;
  },
) => {
  const { customer, retailer } = input;
  const language = input.language ?? 'en';
  const png = demoSignaturePng(customer.id % 4);
  const [signature] = await db
    .insert(media)
    .values({
      orgId: customer.orgId,
      customerId: customer.id,
      kind: 'customer_signature',
      path: `${customer.orgId}/customer_signature/${uuidv7()}.png`,
      mimeType: 'image/png',
      sizeBytes: png.byteLength,
      content: png,
      uploadedBy: retailer.id,
      createdAt: customer.createdAt,
    })
    .returning({ id: media.id });
  const [consent] = await db
    .insert(customerConsents)
    .values({
      orgId: customer.orgId,
      customerId: customer.id,
      language,
      textVersion: CONSENT_TEXT_VERSION,
      text: renderConsentText(language, {
        customerName: `${customer.firstName} ${customer.lastName}`,
        productName: `${input.product.brand} ${input.product.name}`,
        retailerName: retailer.name,
        retailerPhone: formatMobileForText(retailer.mobile),
        orgName: input.companyName,
      }),
      signatureMediaId: signature!.id,
      recordedBy: retailer.id,
      consentedAt: customer.createdAt,
    })
    .returning();
  return consent!;
};

/**
 * Merges `patch` into an organisation's settings document (top-level keys replace, as jsonb `||`);
 * keys given as undefined are removed. Returns nothing.
 */
export const patchOrganizationSettings = async (
  db: DbOrTx,
  orgId: number,
  patch: Partial<typeof organizations.$inferSelect.settings>,
) => {
  const removed = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] === undefined);
  const kept = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  let settings = sql`${organizations.settings} || ${JSON.stringify(kept)}::jsonb`;
  for (const key of removed) settings = sql`(${settings}) - ${key}::text`;
  await db.update(organizations).set({ settings }).where(eq(organizations.id, orgId));
};

/**
 * Makes a customer's instalment (`instalmentNo`, default the first) unpaid and due `daysOverdue`
 * days before today in India (default 3): overdue, so a lock or a bulk lock of the overdue reaches
 * the customer.
 */
export const makeInstalmentOverdue = async (
  db: DbOrTx,
  customerId: number,
  options: { daysOverdue?: number; instalmentNo?: number } = {},
) => {
  await db
    .update(emis)
    .set({ dueDate: addDays(istDate(), -(options.daysOverdue ?? 3)), paidPaise: 0 })
    .where(and(eq(emis.customerId, customerId), eq(emis.instalmentNo, options.instalmentNo ?? 1)));
};

/**
 * Pays a customer's instalments in full: every one, or those due before `dueBefore`
 * (YYYY-MM-DD, India's calendar) when given, which leaves the customer paid up to date.
 */
export const payInstalments = async (
  db: DbOrTx,
  customerId: number,
  options: { dueBefore?: string } = {},
) => {
  await db
    .update(emis)
    .set({ paidPaise: sql`${emis.amountPaise}` })
    .where(
      and(
        eq(emis.customerId, customerId),
        options.dueBefore === undefined ? undefined : lt(emis.dueDate, options.dueBefore),
      ),
    );
};

/** Updates the staff user (not the customer login) with this mobile in the organisation. */
export const updateStaffUser = async (
  db: DbOrTx,
  who: { orgId: number; mobile: string },
  patch: Partial<typeof users.$inferInsert>,
) => {
  await db
    .update(users)
    .set(patch)
    .where(and(eq(users.orgId, who.orgId), eq(users.mobile, who.mobile), ne(users.userType, 'customer')));
};

/** Updates a customer row (status, device family, names…) in place. */
export const updateCustomer = async (
  db: DbOrTx,
  customerId: number,
  patch: Partial<typeof customers.$inferInsert>,
) => {
  await db.update(customers).set(patch).where(eq(customers.id, customerId));
};

/** Updates a customer's device row (enrolment, secret, presence…) in place. */
export const updateDevice = async (
  db: DbOrTx,
  customerId: number,
  patch: Partial<typeof devices.$inferInsert>,
) => {
  await db.update(devices).set(patch).where(eq(devices.customerId, customerId));
};
