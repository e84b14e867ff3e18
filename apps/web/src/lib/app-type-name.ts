import type { TAppType } from '@kisht/domain/common/enums';
import { APP_TYPE_KEYS } from '@kisht/domain/ledger/ledger.rules';
import type { ParseKeys, TFunction } from 'i18next';

/**
 * The translated name of an app_type code (spec §1), or the code itself for one spec §1 does not
 * list. Shared by the features that show key types (the ledger, key requests).
 */
export const appTypeName = (t: TFunction, code: number): string => {
  const key = APP_TYPE_KEYS[code as TAppType];
  return key ? t(`appType.${key}` as ParseKeys) : String(code);
};
