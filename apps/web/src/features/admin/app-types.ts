import { AppType, type TAppType } from '@kisht/domain/common/enums';
import { PLAN_APP_TYPES } from '@kisht/domain/plans/plans.schema';
import type { ParseKeys } from 'i18next';

/** The spec §1 app_types with their translated names, in code order (key types of the ledger). */
export const APP_TYPE_OPTIONS: ReadonlyArray<{ value: TAppType; labelKey: ParseKeys }> = [
  { value: AppType.DEVICE_POLICY_CONTROLLER, labelKey: 'appType.devicePolicyController' },
  { value: AppType.LINK_BASED, labelKey: 'appType.linkBased' },
  { value: AppType.APPLE, labelKey: 'appType.apple' },
  { value: AppType.ANTI_THEFT, labelKey: 'appType.antiTheft' },
  { value: AppType.EXTENDED_WARRANTY, labelKey: 'appType.extendedWarranty' },
  { value: AppType.OLD_LINK_BASED, labelKey: 'appType.oldLinkBased' },
  { value: AppType.FAMILY_CARE, labelKey: 'appType.familyCare' },
  { value: AppType.ANTI_HACKING, labelKey: 'appType.antiHacking' },
  { value: AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT, labelKey: 'appType.devicePolicyControllerAntiTheft' },
  { value: AppType.DEVICE_POLICY_CONTROLLER_LITE, labelKey: 'appType.devicePolicyControllerLite' },
  { value: AppType.ANTI_HACKING_PRO, labelKey: 'appType.antiHackingPro' },
  { value: AppType.ANTI_HACKING_PREMIUM, labelKey: 'appType.antiHackingPremium' },
];

/** The plan app_types (issue 14) with their translated names, in code order. */
export const PLAN_TYPE_OPTIONS = APP_TYPE_OPTIONS.filter((option) =>
  (PLAN_APP_TYPES as readonly number[]).includes(option.value),
);
