import { describe, expect, it } from 'vitest';
import { DEFAULT_DISTRIBUTOR_LEVELS, distributorLevelsOf, levelOf, mayJoinUnder } from './network.rules';

describe('the distribution network (issue 30)', () => {
  it('a retailer joins under the organisation or any distributor', () => {
    for (const levels of [0, 1, 2, 5]) {
      expect(mayJoinUnder('retailer', { kind: 'organisation' }, levels)).toBe(true);
      expect(mayJoinUnder('retailer', { kind: 'distributor', level: 3 }, levels)).toBe(true);
    }
  });

  it('a distributor joins only where its level stays within the configured levels', () => {
    expect(mayJoinUnder('distributor', { kind: 'organisation' }, 0)).toBe(false);
    expect(mayJoinUnder('distributor', { kind: 'organisation' }, 1)).toBe(true);
    expect(mayJoinUnder('distributor', { kind: 'distributor', level: 1 }, 1)).toBe(false);
    expect(mayJoinUnder('distributor', { kind: 'distributor', level: 1 }, 2)).toBe(true);
    expect(mayJoinUnder('distributor', { kind: 'distributor', level: 2 }, 2)).toBe(false);
    expect(levelOf({ kind: 'organisation' })).toBe(0);
  });

  it('an organisation that set no levels has super-distributors and distributors', () => {
    expect(distributorLevelsOf({})).toBe(DEFAULT_DISTRIBUTOR_LEVELS);
    expect(distributorLevelsOf(null)).toBe(2);
    expect(distributorLevelsOf({ distributorLevels: 0 })).toBe(0);
  });
});
