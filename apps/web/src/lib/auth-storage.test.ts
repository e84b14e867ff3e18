import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getUserType, isCustomerUser } from './auth-storage';

afterEach(() => localStorage.clear());

describe('user type (spec §3 `type`, §4 user types)', () => {
  it.each([
    ['customer', 'customer', true],
    ['retailer', 'retailer', false],
    ['miniretailer', 'miniretailer', false],
    ['admin', 'admin', false],
    ['superuser', null, false],
  ] as const)('reads %s as %s (customer: %s)', (stored, type, isCustomer) => {
    localStorage.setItem('type', stored);
    expect(getUserType()).toBe(type);
    expect(isCustomerUser()).toBe(isCustomer);
  });

  it('knows no type without a session', () => {
    localStorage.setItem('type', 'customer');
    clearSession();
    expect(getUserType()).toBeNull();
    expect(isCustomerUser()).toBe(false);
  });
});
