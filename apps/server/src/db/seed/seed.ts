import { AppType } from '@kisht/domain/common/enums';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { reserveEnrolmentKey, spendReservedKey, transferKeys } from '../../modules/ledger/ledger.service';
import { seedOrgPages } from '../../modules/org-pages/org-pages.service';
import type { Db } from '../client';
import { organizations } from '../schema';
import {
  createCustomerConsent,
  createCustomerWithLoan,
  createFinancers,
  createOrganization,
  createPlans,
  createProducts,
  createUser,
} from './factories';

/** How the demo organisation's customers reach it (the support page's buttons; issue 16). */
export const DEMO_SUPPORT_CONTACT = {
  phone: '+919876500001',
  whatsapp: '+919876500001',
  email: 'support@kisht.example',
};

/** The demo organisation (spec §9: config shows org id 41) and its retailer's mobile number. */
export const DEMO_ORG_ID = 41;
export const DEMO_RETAILER_MOBILE = '+919876543210';
export const DEMO_MINI_RETAILER_MOBILE = '+919876543211';
/** A second demo mini-retailer, deactivated by its retailer. */
export const DEMO_INACTIVE_MINI_RETAILER_MOBILE = '+919876543300';
/**
 * The demo organisation's distribution network (issue 30): a super-distributor, a distributor
 * below it, and a retailer below that (with no keys yet: it asks its distributor).
 */
export const DEMO_SUPER_DISTRIBUTOR_MOBILE = '+919876500101';
export const DEMO_DISTRIBUTOR_MOBILE = '+919876500102';
export const DEMO_NETWORK_RETAILER_MOBILE = '+919876500103';
/** A second organisation (spec §9 lists id 46), for white-label and tenant-isolation checks. */
export const SECOND_ORG_ID = 46;
export const SECOND_RETAILER_MOBILE = '+919812345678';
/** Organisations of spec §2 that warn on opening an inactive customer (46 is SECOND_ORG_ID). */
export const WARN_ON_INACTIVE_ORG_IDS = [35, 36];

/** Real phone models with Indian launch prices (₹, in paise). */
export const DEMO_PRODUCTS = [
  { brand: 'Samsung', name: 'Galaxy A16 5G (8GB/128GB)', pricePaise: 1_899_900 },
  { brand: 'Samsung', name: 'Galaxy M35 5G (6GB/128GB)', pricePaise: 1_799_900 },
  { brand: 'Redmi', name: 'Note 14 5G (6GB/128GB)', pricePaise: 1_799_900 },
  { brand: 'Redmi', name: '14C 5G (4GB/64GB)', pricePaise: 999_900 },
  { brand: 'Vivo', name: 'Y29 5G (4GB/128GB)', pricePaise: 1_399_900 },
  { brand: 'OPPO', name: 'A3x 5G (4GB/64GB)', pricePaise: 1_249_900 },
  { brand: 'realme', name: 'Narzo 70 Turbo 5G (6GB/128GB)', pricePaise: 1_699_900 },
  { brand: 'Motorola', name: 'moto g85 5G (8GB/128GB)', pricePaise: 1_799_900 },
  { brand: 'OnePlus', name: 'Nord CE4 Lite 5G (8GB/128GB)', pricePaise: 1_999_900 },
  { brand: 'Apple', name: 'iPhone 15 (128GB)', pricePaise: 6_990_000, platform: 'ios' as const },
];

/** Demo customers of org 41; daysAgo dates the loan, so Priya (locked) has an overdue instalment. */
type TDemoCustomer = {
  firstName: string;
  lastName: string;
  mobile: string;
  status: number;
  product: number;
  daysAgo: number;
  isEnrolled?: boolean;
  isLocked?: boolean;
  paidInstalments?: number;
};
const DEMO_CUSTOMERS: TDemoCustomer[] = [
  {
    firstName: 'Aarav',
    lastName: 'Sharma',
    mobile: '+919811111101',
    status: 1,
    isEnrolled: true,
    product: 0,
    daysAgo: 28,
  },
  {
    firstName: 'Priya',
    lastName: 'Patel',
    mobile: '+919811111102',
    status: 1,
    isEnrolled: true,
    isLocked: true,
    product: 2,
    daysAgo: 50,
  },
  { firstName: 'Rahul', lastName: 'Verma', mobile: '+919811111103', status: 0, product: 4, daysAgo: 14 },
  {
    firstName: 'Sneha',
    lastName: 'Iyer',
    mobile: '+919811111104',
    status: 5,
    isEnrolled: true,
    product: 6,
    daysAgo: 7,
    paidInstalments: 6,
  },
];
/** Financers loans can be booked with (own books first, then consumer-durable NBFCs). */
export const DEMO_FINANCERS = [
  'Kisht (own books)',
  'Bajaj Finserv',
  'HDB Financial Services',
  'Home Credit India',
];
/** The demo retailer's UPI ID, for the customer's "how to pay". */
export const DEMO_RETAILER_UPI_ID = 'ravimobiles@okaxis';
/** The demo organisation's admin (issue 13: credits keys to retailers), who logs in with OTP. */
export const DEMO_ADMIN_MOBILE = '+919876500000';
/**
 * Keys the demo retailers start with (issue 13), per app_type: 50 device policy controller, 20 of
 * each other type the add-customer form offers most; the demo mini-retailer gets 5 of the first.
 */
export const DEMO_RETAILER_KEYS: Partial<Record<number, number>> = {
  [AppType.DEVICE_POLICY_CONTROLLER]: 50,
  [AppType.LINK_BASED]: 20,
  [AppType.APPLE]: 20,
  [AppType.ANTI_THEFT]: 20,
  [AppType.OLD_LINK_BASED]: 20,
  [AppType.EXTENDED_WARRANTY]: 20,
  [AppType.FAMILY_CARE]: 20,
  [AppType.ANTI_HACKING]: 20,
  [AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT]: 20,
  [AppType.DEVICE_POLICY_CONTROLLER_LITE]: 20,
  [AppType.ANTI_HACKING_PRO]: 20,
  [AppType.ANTI_HACKING_PREMIUM]: 20,
};

/** The demo organisations' protection plans (issue 14), in paise and months. */
export const DEMO_PLANS = [
  { name: 'Anti-Hacking', appType: AppType.ANTI_HACKING, pricePaise: 29_900, durationMonths: 12 },
  { name: 'Anti-Hacking Pro', appType: AppType.ANTI_HACKING_PRO, pricePaise: 49_900, durationMonths: 12 },
  {
    name: 'Anti-Hacking Premium',
    appType: AppType.ANTI_HACKING_PREMIUM,
    pricePaise: 79_900,
    durationMonths: 24,
  },
  { name: 'Family Care', appType: AppType.FAMILY_CARE, pricePaise: 39_900, durationMonths: 12 },
  { name: 'Family Care Plus', appType: AppType.FAMILY_CARE, pricePaise: 69_900, durationMonths: 24 },
  {
    name: 'Extended Warranty 1 year',
    appType: AppType.EXTENDED_WARRANTY,
    pricePaise: 99_900,
    durationMonths: 12,
  },
  {
    name: 'Extended Warranty 2 years',
    appType: AppType.EXTENDED_WARRANTY,
    pricePaise: 179_900,
    durationMonths: 24,
  },
  { name: 'Anti-Theft', appType: AppType.ANTI_THEFT, pricePaise: 34_900, durationMonths: 12 },
  {
    name: 'Device Lock + Anti-Theft',
    appType: AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT,
    pricePaise: 49_900,
    durationMonths: 12,
  },
];
export const DEMO_MINI_RETAILER_KEYS = 5;

/**
 * The loan of a customer row made in bulk by tests and benchmarks (not by the seed): a ₹15,000
 * phone, ₹3,000 down, ₹12,000 over 6 months at 14% a year (annualRateBps), EMI ₹2,080; in paise.
 * Device type and app type 0 (device-owner DPC).
 */
export const BULK_CUSTOMER_LOAN = {
  appType: 0,
  deviceType: 0,
  pricePaise: 1_500_000,
  downPaymentPaise: 300_000,
  loanAmountPaise: 1_200_000,
  annualRateBps: 1400,
  tenureMonths: 6,
  emiPaise: 208_000,
} as const;
/**
 * payment_gateway prices of the demo organisation, paise per key by app_type: device policy
 * controller ₹499, link-based ₹299, Apple ₹799, DPC lite ₹199. Other app types have no price, so
 * buying them online says 'Please contact admin for prices'.
 */
export const DEMO_KEY_PRICES_PAISE: Record<string, number> = {
  '0': 49_900,
  '1': 29_900,
  '2': 79_900,
  '11': 19_900,
};
/** A demo customer who can log in (OTP) to see their own loan. */
export const DEMO_CUSTOMER_MOBILE = '+919811111102';

/**
 * Seeds the demo organisation 41 (retailer, mini-retailer, catalogue, a few customers) and a second
 * organisation 46 with a different theme, once: does nothing when any organisation exists. Safe to
 * call from several processes at once (a transaction-scoped advisory lock serialises them).
 */
export const seedDemo = async (db: Db, log?: FastifyBaseLogger): Promise<void> => {
  const wasAlreadySeeded = await db.transaction(async (tx) => {
    // Server processes starting together on one PostgreSQL (design §7): the first seeds, the others
    // wait for its commit here, then find organisation rows and leave.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kisht:seed'))`);
    const existing = await tx.select({ id: organizations.id }).from(organizations).limit(1);
    if (existing.length > 0) return true;
    const demoOrg = await createOrganization(tx, {
      id: DEMO_ORG_ID,
      name: 'Kisht Demo',
      companyName: 'Kisht Demo Finance Pvt. Ltd.',
      // Late fee: ₹200 once an instalment is more than 3 days overdue.
      settings: {
        defaultAnnualRateBps: 1400,
        penalty: { kind: 'flat', flatPaise: 20_000, percentBps: 0, graceDays: 3 },
        keyPricesPaise: DEMO_KEY_PRICES_PAISE,
        supportContact: DEMO_SUPPORT_CONTACT,
      },
      // Keys and instalments can be paid online (the fake gateway when no Razorpay keys are set).
      features: { witnessLayout: false, paymentGateway: true },
    });
    const retailer = await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_RETAILER_MOBILE,
      name: 'Ravi Mobiles',
      upiId: DEMO_RETAILER_UPI_ID,
      // Server override of the spec §6 default bulk_retailer '0': this retailer may bulk lock.
      access: { userAccess: { bulk_retailer: '1' } },
      keys: DEMO_RETAILER_KEYS,
    });
    const miniRetailer = await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_MINI_RETAILER_MOBILE,
      name: 'Ravi Mobiles – Andheri',
      shopName: 'Ravi Mobiles Andheri',
      address: {
        line1: 'Shop 12, Lokhandwala Market',
        countryCode: 'IN',
        stateCode: 'MH',
        city: 'Mumbai',
        pincode: '400053',
      },
      userType: 'miniretailer',
      parentId: retailer.id,
      keys: {},
    });
    // A mini-retailer its retailer deactivated (retailer_list's inactive filter; it cannot log in).
    await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_INACTIVE_MINI_RETAILER_MOBILE,
      name: 'Ravi Mobiles – Borivali',
      shopName: 'Ravi Mobiles Borivali',
      address: {
        line1: 'Shop 3, Station Road',
        countryCode: 'IN',
        stateCode: 'MH',
        city: 'Mumbai',
        pincode: '400092',
      },
      userType: 'miniretailer',
      parentId: retailer.id,
      isActive: false,
      deactivatedAt: new Date(),
      keys: {},
    });
    // The retailer passes a few keys on to its mini-retailer, as a shop would (issue 13).
    await transferKeys(tx, {
      actor: { userId: retailer.id, orgId: DEMO_ORG_ID, userType: 'retailer', sessionId: 'seed' },
      request: {
        userId: miniRetailer.id,
        appType: AppType.DEVICE_POLICY_CONTROLLER,
        quantity: DEMO_MINI_RETAILER_KEYS,
        direction: 'to_child',
      },
    });
    await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_ADMIN_MOBILE,
      name: 'Kisht Demo Admin',
      userType: 'admin',
    });
    // The distribution network (issue 30): super-distributor → distributor → retailer.
    const superDistributor = await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_SUPER_DISTRIBUTOR_MOBILE,
      name: 'Shree Telecom',
      shopName: 'Shree Telecom Distributors',
      userType: 'distributor',
      address: { line1: 'Lamington Road', countryCode: 'IN', stateCode: 'MH', city: 'Mumbai' },
      keys: { [AppType.DEVICE_POLICY_CONTROLLER]: 40, [AppType.LINK_BASED]: 20 },
    });
    const distributor = await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_DISTRIBUTOR_MOBILE,
      name: 'Andheri Mobile Distributors',
      shopName: 'Andheri Mobile Distributors',
      userType: 'distributor',
      parentId: superDistributor.id,
      address: { line1: 'Andheri East', countryCode: 'IN', stateCode: 'MH', city: 'Mumbai' },
      keys: { [AppType.DEVICE_POLICY_CONTROLLER]: 12 },
    });
    await createUser(tx, {
      orgId: DEMO_ORG_ID,
      mobile: DEMO_NETWORK_RETAILER_MOBILE,
      name: 'Sai Mobile Point',
      shopName: 'Sai Mobile Point',
      userType: 'retailer',
      parentId: distributor.id,
      address: { line1: 'Shop 4, JB Nagar', countryCode: 'IN', stateCode: 'MH', city: 'Mumbai' },
      keys: {},
    });
    // Help, support and privacy pages (issue 16) in every language the built-in texts have.
    await seedOrgPages(tx, DEMO_ORG_ID, { orgName: demoOrg.name, companyName: demoOrg.companyName });
    const catalogue = await createProducts(tx, DEMO_ORG_ID, DEMO_PRODUCTS);
    await createPlans(tx, DEMO_ORG_ID, DEMO_PLANS);
    await createFinancers(tx, DEMO_ORG_ID, DEMO_FINANCERS);
    const day = 86_400_000;
    for (const c of DEMO_CUSTOMERS) {
      const { customer, device } = await createCustomerWithLoan(tx, {
        orgId: DEMO_ORG_ID,
        retailerId: retailer.id,
        product: catalogue[c.product]!,
        firstName: c.firstName,
        lastName: c.lastName,
        mobile: c.mobile,
        status: c.status,
        isEnrolled: c.isEnrolled ?? false,
        isLocked: c.isLocked ?? false,
        paidInstalments: c.paidInstalments ?? 0,
        createdAt: new Date(Date.now() - c.daysAgo * day),
      });
      const product = catalogue[c.product]!;
      await createCustomerConsent(tx, { customer, product, retailer, companyName: demoOrg.companyName });
      // An enrolled phone cost its retailer a key: reserved by its QR, spent when it enrolled.
      if (c.isEnrolled) {
        await reserveEnrolmentKey(tx, {
          orgId: DEMO_ORG_ID,
          retailerId: retailer.id,
          customerId: customer.id,
          appType: customer.appType,
          imei: device.imei1,
          actorUserId: retailer.id,
        });
        await spendReservedKey(tx, { orgId: DEMO_ORG_ID, customerId: customer.id, imei: device.imei1 });
      }
    }

    const secondOrg = await createOrganization(tx, {
      id: SECOND_ORG_ID,
      name: 'Shree Finance',
      companyName: 'Shree Device Finance LLP',
      theme: { primaryColor: '#6a1b9a', secondaryColor: '#00897b', logoUrl: null },
      mainLayout: 'compact',
      pages: { dashboard: 'list', inactiveCustomer: 'warn' },
      // This organisation takes a witness signature, and charges 2% of an instalment as late fee.
      features: { witnessLayout: true, paymentGateway: false },
      settings: {
        penalty: { kind: 'percent', flatPaise: 0, percentBps: 200, graceDays: 0 },
        supportContact: { phone: '+919812300000', email: 'care@shreefinance.example' },
      },
    });
    await seedOrgPages(tx, SECOND_ORG_ID, { orgName: secondOrg.name, companyName: secondOrg.companyName });
    // Spec §2: organisations 35 and 36 (and 46 above) warn 'Customer is Inactive' instead of navigating.
    for (const id of WARN_ON_INACTIVE_ORG_IDS) {
      await createOrganization(tx, { id, pages: { dashboard: 'cards', inactiveCustomer: 'warn' } });
    }
    const second = await createUser(tx, {
      orgId: SECOND_ORG_ID,
      mobile: SECOND_RETAILER_MOBILE,
      name: 'Shree Telecom',
      keys: DEMO_RETAILER_KEYS,
    });
    const secondCatalogue = await createProducts(tx, SECOND_ORG_ID, DEMO_PRODUCTS.slice(0, 3));
    await createPlans(tx, SECOND_ORG_ID, DEMO_PLANS.slice(0, 6));
    await createFinancers(tx, SECOND_ORG_ID, DEMO_FINANCERS.slice(0, 2));
    const secondConsent = { retailer: second, companyName: secondOrg.companyName };
    const kiran = await createCustomerWithLoan(tx, {
      orgId: SECOND_ORG_ID,
      retailerId: second.id,
      product: secondCatalogue[0]!,
      firstName: 'Kiran',
      lastName: 'Desai',
      mobile: '+919822222201',
      status: 1,
      isEnrolled: true,
    });
    await createCustomerConsent(tx, {
      ...secondConsent,
      customer: kiran.customer,
      product: secondCatalogue[0]!,
    });
    const farah = await createCustomerWithLoan(tx, {
      orgId: SECOND_ORG_ID,
      retailerId: second.id,
      product: secondCatalogue[1]!,
      firstName: 'Farah',
      lastName: 'Khan',
      mobile: '+919822222202',
      status: 0,
    });
    await createCustomerConsent(tx, {
      ...secondConsent,
      customer: farah.customer,
      product: secondCatalogue[1]!,
    });
    return false;
  });
  if (wasAlreadySeeded) return;
  log?.info(`seeded demo organisation ${DEMO_ORG_ID}; retailer mobile ${DEMO_RETAILER_MOBILE}`);
};
