import { describe, expect, it } from 'vitest';
import { resolveOrgId } from './config';

describe('resolveOrgId (spec §1 white-label, §3 account_id)', () => {
  it('takes ?org= first', () => {
    expect(resolveOrgId({ search: '?org=46', remembered: '41', envValue: '41' })).toBe(46);
  });
  it('else the organisation remembered in account_id, so a reload keeps it', () => {
    expect(resolveOrgId({ search: '', remembered: '46', envValue: '41' })).toBe(46);
  });
  it('else VITE_ORG_ID, else 41', () => {
    expect(resolveOrgId({ search: '', remembered: null, envValue: '12' })).toBe(12);
    expect(resolveOrgId({ search: '', remembered: null, envValue: undefined })).toBe(41);
  });
  it('ignores values that are not organisation ids', () => {
    expect(resolveOrgId({ search: '?org=abc', remembered: '-3', envValue: '0' })).toBe(41);
  });
});
