import { describe, expect, it } from 'vitest';
import {
  BULK_EXCLUDED_STATUSES,
  bulkExclusionReason,
  customerEditActions,
  formatAddress,
} from './customers.rules';

describe('customer edit menu (spec §2)', () => {
  it.each([
    [
      'device policy controller',
      { appType: 0, deviceType: 0 },
      ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'EMM_QR_CODE'],
    ],
    ['DPC plus anti-theft', { appType: 9, deviceType: 0 }, ['IMEI_EDIT', 'EMM_QR_CODE']],
    [
      'Apple device',
      { appType: 2, deviceType: 3 },
      ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'CHECK_STATUS'],
    ],
    [
      'Apple app type',
      { appType: 2, deviceType: 0 },
      ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'CHECK_STATUS'],
    ],
    [
      'link-based',
      { appType: 1, deviceType: 2 },
      ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'EMM_QR_CODE'],
    ],
    [
      'anti-hacking',
      { appType: 8, deviceType: 0 },
      ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'EMM_QR_CODE'],
    ],
  ])('%s', (_label, customer, expected) => {
    expect(customerEditActions(customer)).toEqual(expected);
  });

  it.each([
    [0, false], // inactive: nothing enrolled, the QR is what they need
    [1, true],
    [2, true],
    [3, false], // released
    [4, true], // Apple profile removed: enrol the iPhone again
    [5, false], // paid up
    [6, true],
  ])('offers RE_ENROL to a customer in status %i: %s (issue 27)', (status, isOffered) => {
    expect(customerEditActions({ appType: 0, deviceType: 0, status }).includes('RE_ENROL')).toBe(isOffered);
  });
});

describe('who bulk lock and unlock leave alone, by status', () => {
  it.each([
    [0, null], // inactive: not enrolled, skipped for that reason instead
    [1, null],
    [2, null],
    [3, 'uninstalled'],
    [4, 'Apple profile removed'],
    [5, 'EMIs completed'],
    [6, null], // maturing: still paying
  ])('status %i: %s', (status, expected) => {
    expect(bulkExclusionReason(status)).toBe(expected);
  });

  it('lists exactly the excluded statuses for queries', () => {
    expect([...BULK_EXCLUDED_STATUSES].sort()).toEqual([3, 4, 5]);
  });
});

describe('formatAddress: one way to write an address', () => {
  it.each([
    [
      {
        line1: '12 MG Road',
        city: 'Mumbai',
        stateName: 'Maharashtra',
        pincode: '400001',
        countryName: 'India',
      },
      '12 MG Road, Mumbai, Maharashtra 400001, India',
    ],
    [
      { line1: '4 Park Street', city: 'Kolkata', stateName: 'West Bengal', countryName: 'India' },
      '4 Park Street, Kolkata, West Bengal, India',
    ],
    [
      { line1: ' ', city: 'Pune', stateName: 'Maharashtra', countryName: 'India' },
      'Pune, Maharashtra, India',
    ],
  ])('%o → %s', (address, expected) => {
    expect(formatAddress(address)).toBe(expected);
  });
});
