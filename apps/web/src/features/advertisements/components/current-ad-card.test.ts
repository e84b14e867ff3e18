import { beforeEach, describe, expect, it } from 'vitest';
import { dismissAd, isAdShown } from './current-ad-card';

describe('showAd (spec §3): the dismissible current ad', () => {
  beforeEach(() => localStorage.clear());

  it('shows an ad until dismissed, then not that ad; a newer ad shows again', () => {
    localStorage.setItem('showAd', '1');
    expect(isAdShown(7)).toBe(true);
    dismissAd(7);
    expect(localStorage.getItem('showAd')).toBe('0');
    expect(isAdShown(7)).toBe(false);
    expect(isAdShown(8)).toBe(true);
  });
});
