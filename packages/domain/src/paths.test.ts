import { describe, expect, it } from 'vitest';
import { paths } from './paths';

const leaves = (node: unknown): string[] =>
  typeof node === 'string' ? [node] : Object.values(node as Record<string, unknown>).flatMap(leaves);

describe('route table', () => {
  const all = leaves(paths);

  it('has absolute, unique paths', () => {
    expect(all.every((p) => p.startsWith('/'))).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each([
    [paths.customers.create, '/country/customerRegistrationByKegenUpdateV3'],
    [paths.auth.loginWithOtp, '/api/auth/loginWithOtp'],
    [paths.auth.verifyOtp, '/api/auth/verifyOtpAuth'],
    [paths.stats.dashboard, '/api/stats/get_keygen_dashboardV1'],
    [paths.orgs.appConfig, '/api/organizations/get_org_app_config'],
  ])('spells %s as spec §7 does', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
