import { describe, expect, it } from 'vitest';
import type { TRouteKey } from './paths';
import {
  appPaths,
  DISTRIBUTOR_ROUTES,
  homeOf,
  mayOpen,
  PRODUCT_ROUTES,
  PUBLIC_ROUTES,
  routeSegment,
} from './paths';

/** Spec §2 route segments, as the spec lists them. */
const SPEC_SEGMENTS = [
  'root',
  'dashboard',
  'customer_details',
  'customer_list',
  'retailer_list',
  'retailer_profile',
  'send_advertisement',
  'up_coming_emi',
  'sim_changes',
  'privacy_policy',
  'help',
  'support',
  'language',
  'retailer_payment_qr',
  'signature',
  'add_customer',
  'anti_theft',
  'add_retailer',
  'emi_details',
  'top_up_history',
  'multiple_lock_unlock',
  'emm_qr',
  'view_emi_details',
  'apple_details',
  'witness_signature',
  'customer_documents',
  'customer_navigate',
  'extended_warranty',
  'payment_gateway',
  'login',
  'otp',
  'm_pin',
  'familycare',
  'antihacking',
  'sessions',
  'apple_sync',
];

const ROUTE_KEYS = Object.keys(appPaths) as TRouteKey[];

describe('route table (spec §2)', () => {
  it('has exactly one route for every spec segment, and the product screens beyond them', () => {
    const segments = ROUTE_KEYS.map(routeSegment);
    expect([...segments].sort()).toEqual(
      [
        ...SPEC_SEGMENTS,
        'pending_commands',
        'device_settings',
        'admin',
        'notifications',
        'collections',
        'collections_loans',
        'key_requests',
        'network',
      ].sort(),
    );
    expect(PRODUCT_ROUTES.map(routeSegment).sort()).toEqual([
      'admin',
      'collections',
      'collections_loans',
      'device_settings',
      'key_requests',
      'network',
      'notifications',
      'pending_commands',
    ]);
    expect(new Set(segments).size).toBe(segments.length);
  });

  it('keeps login, otp and m_pin outside authentication, and only them', () => {
    expect(PUBLIC_ROUTES.map(routeSegment).sort()).toEqual(['login', 'm_pin', 'otp']);
  });

  it('takes customer_id as a path segment on customer_details and as a query parameter on customer_navigate', () => {
    expect(appPaths.customerDetails.path).toBe('/customer_details/:customer_id');
    expect(appPaths.customerDetails.href(7)).toBe('/customer_details/7');
    expect(appPaths.customerNavigate.path).toBe('/customer_navigate');
    expect(appPaths.customerNavigate.href(7)).toBe('/customer_navigate?customer_id=7');
  });

  it('takes customer_id as a query parameter on customer_documents, signature and witness_signature', () => {
    expect(appPaths.customerDocuments.href(7)).toBe('/customer_documents?customer_id=7');
    expect(appPaths.signature.href(7)).toBe('/signature?customer_id=7');
    expect(appPaths.witnessSignature.href(7)).toBe('/witness_signature?customer_id=7');
  });

  it('opens add_customer empty, or on the attachments step of a customer just created', () => {
    expect(appPaths.addCustomer.href()).toBe('/add_customer');
    expect(appPaths.addCustomer.href(42)).toBe('/add_customer?customer_id=42');
  });

  it('links to a customer_details tab, the first (customer) without a parameter', () => {
    expect(appPaths.customerDetails.href(7, 'customer')).toBe('/customer_details/7');
    expect(appPaths.customerDetails.href(7, 'device')).toBe('/customer_details/7?tab=device');
    expect(appPaths.customerDetails.href(7, 'actions')).toBe('/customer_details/7?tab=actions');
  });

  it('links to multiple_lock_unlock, or to the progress of one bulk request', () => {
    expect(appPaths.multipleLockUnlock.href()).toBe('/multiple_lock_unlock');
    expect(appPaths.multipleLockUnlock.href('0193a5a4-7e0e-7c55-8f00-00000000b001')).toBe(
      '/multiple_lock_unlock?batch_id=0193a5a4-7e0e-7c55-8f00-00000000b001',
    );
  });

  it('links to a pending_commands tab, the first (offline) without a parameter', () => {
    expect(appPaths.pendingCommands.href()).toBe('/pending_commands');
    expect(appPaths.pendingCommands.href('offline')).toBe('/pending_commands');
    expect(appPaths.pendingCommands.href('scheduled')).toBe('/pending_commands?tab=scheduled');
    expect(appPaths.deviceSettings.href()).toBe('/device_settings');
  });

  it('links to a key_requests tab, the first (sent) without a parameter', () => {
    expect(appPaths.keyRequests.href()).toBe('/key_requests');
    expect(appPaths.keyRequests.href('sent')).toBe('/key_requests');
    expect(appPaths.keyRequests.href('received')).toBe('/key_requests?tab=received');
    expect(appPaths.keyRequests.href('prices')).toBe('/key_requests?tab=prices');
  });

  it('links to the m_pin modes', () => {
    expect(appPaths.mPin.href()).toBe('/m_pin');
    expect(appPaths.mPin.href('login')).toBe('/m_pin');
    expect(appPaths.mPin.href('set')).toBe('/m_pin?mode=set');
  });
});

describe('who opens which screen (issue 30)', () => {
  it('a distributor opens its network, key requests, key history, collections and the account pages only', () => {
    const opened = ROUTE_KEYS.filter((route) => mayOpen(route, 'distributor'));
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.sort()).toEqual([...DISTRIBUTOR_ROUTES].sort());
    expect(mayOpen('dashboard', 'distributor')).toBe(false);
    expect(mayOpen('customerList', 'distributor')).toBe(false);
    expect(mayOpen('admin', 'distributor')).toBe(false);
    expect(homeOf('distributor')).toBe('network');
  });

  it('a shop opens neither the admin home nor a distributor’s network; each user type has its home', () => {
    for (const shop of ['retailer', 'miniretailer'] as const) {
      expect(mayOpen('network', shop)).toBe(false);
      expect(mayOpen('admin', shop)).toBe(false);
      expect(mayOpen('customerList', shop)).toBe(true);
      expect(homeOf(shop)).toBe('dashboard');
    }
    expect(mayOpen('network', 'admin')).toBe(false);
    expect(mayOpen('customerList', 'customer')).toBe(false);
    expect(homeOf('admin')).toBe('admin');
    expect(homeOf('customer')).toBe('dashboard');
  });
});
