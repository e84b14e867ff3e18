import type { TKeyStockLevel } from '@kisht/domain/ledger/ledger.rules';

/**
 * Each key stock level as a traffic-light colour of the theme (issue 30): low red, running low
 * amber, enough green. The key balances card and the network's nodes show the same colours.
 */
export const KEY_STOCK_COLOR = {
  low: 'error',
  running_low: 'warning',
  ok: 'success',
} as const satisfies Record<TKeyStockLevel, string>;
