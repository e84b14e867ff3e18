import { test } from 'vitest';
import {
  type CustomerFactoryInput,
  createCustomerConsent,
  createCustomerWithLoan,
  createFinancers,
  createPlans,
  createProducts,
  createUser,
  makeInstalmentOverdue,
  patchOrganizationSettings,
  payInstalments,
  updateCustomer,
  updateDevice,
  updateStaffUser,
} from '../db/seed/factories';
import {
  DEMO_MINI_RETAILER_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../db/seed/seed';
import { findUserByMobile } from '../modules/auth/auth.repository';
import { createTestApp, type TestApp } from './harness';

type TUserRow = NonNullable<Awaited<ReturnType<typeof findUserByMobile>>>;

/**
 * The seed factories (db/seed/factories.ts) bound to one test's database, with the demo
 * organisation (41), its retailer Ravi Mobiles and its first product as defaults.
 */
export type TTestFactories = {
  /** The seeded user with this mobile (E.164) in `orgId` (default the demo organisation). Throws if none. */
  userByMobile: (mobile: string, orgId?: number) => Promise<TUserRow>;
  /** A user (default a retailer with keys) in the demo organisation; see createUser. */
  user: (
    input: Omit<Parameters<typeof createUser>[1], 'orgId'> & { orgId?: number },
  ) => ReturnType<typeof createUser>;
  /**
   * A customer with device and EMI schedule (createCustomerWithLoan): by default the demo
   * retailer's, on the organisation's first product, inactive, not enrolled, nothing paid.
   */
  customer: (
    input?: Partial<Omit<CustomerFactoryInput, 'product'>> & { product?: CustomerFactoryInput['product'] },
  ) => ReturnType<typeof createCustomerWithLoan>;
  /** The customer's recorded consent to remote locking (createCustomerConsent), by the demo retailer. */
  consent: (
    customer: Parameters<typeof createCustomerConsent>[1]['customer'],
  ) => ReturnType<typeof createCustomerConsent>;
  products: (rows: Parameters<typeof createProducts>[2], orgId?: number) => ReturnType<typeof createProducts>;
  plans: (rows: Parameters<typeof createPlans>[2], orgId?: number) => ReturnType<typeof createPlans>;
  financers: (names: string[], orgId?: number) => ReturnType<typeof createFinancers>;
  /** Merges into the organisation's settings (default the demo organisation); see patchOrganizationSettings. */
  orgSettings: (patch: Parameters<typeof patchOrganizationSettings>[2], orgId?: number) => Promise<void>;
  /** The customer's instalment unpaid and due days ago (default the first, 3 days); see makeInstalmentOverdue. */
  overdue: (customerId: number, options?: Parameters<typeof makeInstalmentOverdue>[2]) => Promise<void>;
  /** Pays the customer's instalments (all, or those due before a date); see payInstalments. */
  paid: (customerId: number, options?: Parameters<typeof payInstalments>[2]) => Promise<void>;
  /** Updates the staff user with this mobile (default in the demo organisation); see updateStaffUser. */
  staffUser: (mobile: string, patch: Parameters<typeof updateStaffUser>[2], orgId?: number) => Promise<void>;
  /** Updates a customer row in place; see updateCustomer. */
  customerRow: (customerId: number, patch: Parameters<typeof updateCustomer>[2]) => Promise<void>;
  /** Updates the customer's device row in place; see updateDevice. */
  deviceRow: (customerId: number, patch: Parameters<typeof updateDevice>[2]) => Promise<void>;
};

/** What a route test gets from routeTest, each made only when the test names it. */
export type TRouteFixtures = {
  /**
   * Environment overrides for the test's app (createTestApp's argument), none by default: a file or
   * describe block sets them with `it.override('appOverrides', { … })`.
   */
  appOverrides: Record<string, string>;
  /** A Kisht app on the seeded template database (harness.createTestApp), closed after the test. */
  t: TestApp;
  /** The demo retailer's (Ravi Mobiles, organisation 41) bearer token, from a session opened directly. */
  retailer: string;
  /** The demo mini-retailer's bearer token (organisation 41). */
  miniRetailer: string;
  /** The second organisation's (46) retailer's bearer token: another tenant, for the 404 cases. */
  otherRetailer: string;
  /** The seed factories on this test's database. */
  make: TTestFactories;
};

const factoriesFor = (t: TestApp): TTestFactories => {
  const { db } = t.app.ctx;
  const userByMobile = async (mobile: string, orgId = DEMO_ORG_ID) => {
    const user = await findUserByMobile(db, orgId, mobile);
    if (!user) throw new Error(`no user ${mobile} in organisation ${orgId}`);
    return user;
  };
  const firstProduct = async (orgId: number) => {
    const product = await db.query.products.findFirst({
      where: (p, { eq }) => eq(p.orgId, orgId),
      orderBy: (p, { asc }) => asc(p.id),
    });
    if (!product) throw new Error(`organisation ${orgId} has no product`);
    return product;
  };
  return {
    userByMobile,
    user: (input) => createUser(db, { orgId: DEMO_ORG_ID, ...input }),
    customer: async (input = {}) => {
      const orgId = input.orgId ?? DEMO_ORG_ID;
      return createCustomerWithLoan(db, {
        ...input,
        orgId,
        retailerId: input.retailerId ?? (await userByMobile(DEMO_RETAILER_MOBILE, orgId)).id,
        product: input.product ?? (await firstProduct(orgId)),
      });
    },
    consent: async (customer) => {
      const retailer = await userByMobile(DEMO_RETAILER_MOBILE, customer.orgId);
      const organisation = await db.query.organizations.findFirst({
        where: (o, { eq }) => eq(o.id, customer.orgId),
      });
      return createCustomerConsent(db, {
        customer,
        product: await firstProduct(customer.orgId),
        retailer,
        companyName: organisation?.companyName ?? '',
      });
    },
    products: (rows, orgId = DEMO_ORG_ID) => createProducts(db, orgId, rows),
    plans: (rows, orgId = DEMO_ORG_ID) => createPlans(db, orgId, rows),
    financers: (names, orgId = DEMO_ORG_ID) => createFinancers(db, orgId, names),
    orgSettings: (patch, orgId = DEMO_ORG_ID) => patchOrganizationSettings(db, orgId, patch),
    overdue: (customerId, options) => makeInstalmentOverdue(db, customerId, options),
    paid: (customerId, options) => payInstalments(db, customerId, options),
    staffUser: (mobile, patch, orgId = DEMO_ORG_ID) => updateStaffUser(db, { orgId, mobile }, patch),
    customerRow: (customerId, patch) => updateCustomer(db, customerId, patch),
    deviceRow: (customerId, patch) => updateDevice(db, customerId, patch),
  };
};

/**
 * vitest's `test` with the route-test fixtures (issue 17): an app per test on its own copy of the
 * seeded database, tokens of the seeded retailers without an OTP round, and the seed factories for
 * data instead of raw SQL. Tests about signing in use `t.login`, which goes through the OTP routes.
 */
export const routeTest = test.extend<TRouteFixtures>({
  appOverrides: {},
  t: async ({ appOverrides }, use) => {
    const t = await createTestApp(appOverrides);
    await use(t);
    await t.close();
  },
  retailer: async ({ t }, use) => use(await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE)),
  miniRetailer: async ({ t }, use) => use(await t.tokenFor(DEMO_ORG_ID, DEMO_MINI_RETAILER_MOBILE)),
  otherRetailer: async ({ t }, use) => use(await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE)),
  make: async ({ t }, use) => use(factoriesFor(t)),
});
