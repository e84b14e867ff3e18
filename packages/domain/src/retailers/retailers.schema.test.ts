import { describe, expect, it } from 'vitest';
import { gstinCheckChar, ZAddRetailerRequest, ZGstNumber } from './retailers.schema';

/** Real GSTINs (GST portal and public invoices), each with its mod-36 check character. */
const VALID = ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '33AAACH7409R1Z8'];

describe('ZGstNumber', () => {
  it.each(VALID)('accepts %s', (gstin) => {
    expect(ZGstNumber.parse(gstin)).toBe(gstin);
  });

  it('upper-cases and strips spaces, and reads empty text as none', () => {
    expect(ZGstNumber.parse(' 27aapfu0939f1zv ')).toBe('27AAPFU0939F1ZV');
    expect(ZGstNumber.parse('27AAPFU 0939F1ZV')).toBe('27AAPFU0939F1ZV');
    expect(ZGstNumber.parse('')).toBeUndefined();
  });

  it.each([
    ['27AAPFU0939F1Z', 'GST number is 15 characters'],
    ['27AAPFU0939F1ZVX', 'GST number is 15 characters'],
    ['00AAPFU0939F1ZV', 'GST number starts with a state code 01 to 38'],
    ['39AAPFU0939F1ZV', 'GST number starts with a state code 01 to 38'],
    ['2XAAPFU0939F1ZV', 'GST number starts with a state code 01 to 38'],
    ['27AAPF10939F1ZV', 'GST number must contain a valid PAN'],
    ['27AAPFU09391F1Z', 'GST number must contain a valid PAN'],
    ['27AAPFU0939F0ZV', 'Enter a valid GST number'],
    ['27AAPFU0939F1YV', 'Enter a valid GST number'],
    ['27AAPFU0939F1ZW', 'GST number check character is wrong'],
    ['29AAGCB7383J1Z5', 'GST number check character is wrong'],
  ])('refuses %s: %s', (gstin, message) => {
    const result = ZGstNumber.safeParse(gstin);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('computes the check character of the mod-36 scheme', () => {
    for (const gstin of VALID) expect(gstinCheckChar(gstin.slice(0, 14))).toBe(gstin[14]);
    expect(gstinCheckChar('27AAPFU0939F1#')).toBeNull();
  });
});

describe('ZAddRetailerRequest', () => {
  const valid = {
    name: 'Suresh Patil',
    shopName: 'Patil Mobiles',
    mobile: '9812300001',
    address: { line1: 'Shop 4, Station Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune' },
  };

  it('stores the mobile with +91 and leaves an empty GSTIN and email out', () => {
    const parsed = ZAddRetailerRequest.parse({ ...valid, gstNumber: '', email: '' });
    expect(parsed.mobile).toBe('+919812300001');
    expect(parsed.gstNumber).toBeUndefined();
    expect(parsed.email).toBeUndefined();
  });

  it.each([
    ['name', { name: '' }, 'This is a required field'],
    ['shopName', { shopName: '  ' }, 'This is a required field'],
    ['mobile', { mobile: '12345' }, 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9'],
    ['gstNumber', { gstNumber: '27AAPFU0939F1ZW' }, 'GST number check character is wrong'],
    ['userAccess.bulk_retailer', { userAccess: { bulk_retailer: '2' } }, undefined],
  ])('refuses a bad %s', (field, override, message) => {
    const result = ZAddRetailerRequest.safeParse({ ...valid, ...override });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.')).toBe(field);
    if (message) expect(result.error?.issues[0]?.message).toBe(message);
  });
});
