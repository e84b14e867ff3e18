import { AppType, CustomerStatus, DeviceType, type TCustomerStatus } from '../common/enums';
import { canTransitionStatus } from './customer-status';

/** Customer edit menu actions, spec §2. */
export const CUSTOMER_EDIT_ACTIONS = [
  'IMEI_EDIT',
  'EMI_EDIT',
  'EDIT_SIGNATURE',
  'EDIT_DOCUMENTS',
  'EMM_QR_CODE',
  'CHECK_STATUS',
  'RE_ENROL',
] as const;
export type TCustomerEditAction = (typeof CUSTOMER_EDIT_ACTIONS)[number];

const BASE_ACTIONS: TCustomerEditAction[] = ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS'];

/**
 * The edit menu of customer_details (spec §2): device policy controller plus anti-theft (app_type
 * 9) keeps only IMEI edit and adds the QR option; Apple adds check status; every other type adds
 * the QR option to the base actions (IMEI, EMI, signature, documents). With the customer's
 * `status`, RE_ENROL follows when their phone may be re-enrolled (issue 27: enrolled, loan running;
 * customer-status `re_enrol`).
 */
export const customerEditActions = (customer: {
  appType: number;
  deviceType: number;
  status?: number;
}): TCustomerEditAction[] => {
  const reEnrol: TCustomerEditAction[] =
    customer.status !== undefined && canTransitionStatus(customer.status, 're_enrol') ? ['RE_ENROL'] : [];
  if (customer.appType === AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT)
    return ['IMEI_EDIT', 'EMM_QR_CODE', ...reEnrol];
  if (customer.deviceType === DeviceType.APPLE || customer.appType === AppType.APPLE)
    return [...BASE_ACTIONS, 'CHECK_STATUS', ...reEnrol];
  return [...BASE_ACTIONS, 'EMM_QR_CODE', ...reEnrol];
};

/**
 * Why bulk lock and unlock leave a customer alone because of their status: the loan is over (EMIs
 * completed, 5) or the app is gone (uninstalled, 3; Apple profile removed, 4). The filters ('all
 * enrolled', 'overdue') never reach them, and a hand-made selection lists them as skipped with this
 * reason. Other statuses are absent.
 */
export const BULK_EXCLUSION_REASONS: Readonly<Partial<Record<TCustomerStatus, string>>> = {
  [CustomerStatus.UNINSTALL]: 'uninstalled',
  [CustomerStatus.APPLE_REMOVED]: 'Apple profile removed',
  [CustomerStatus.EMI_COMPLETED]: 'EMIs completed',
};

/** The statuses of BULK_EXCLUSION_REASONS, for a query's `not in`. */
export const BULK_EXCLUDED_STATUSES = Object.keys(BULK_EXCLUSION_REASONS).map(Number) as TCustomerStatus[];

/** Why a bulk command leaves a customer of this status alone, or null when it may reach them. */
export const bulkExclusionReason = (status: number): string | null =>
  BULK_EXCLUSION_REASONS[status as TCustomerStatus] ?? null;

/** The parts of an address formatAddress writes out (a TCustomerAddress has them all). */
export type TAddressParts = {
  line1: string;
  city: string;
  stateName: string;
  pincode?: string | undefined;
  countryName: string;
};

/**
 * An address on one line, the one way every screen writes it: street, city, state and PIN code,
 * country, with the state and country by their full names ("12 MG Road, Mumbai, Maharashtra
 * 400001, India"). Empty parts are left out.
 */
export const formatAddress = (address: TAddressParts): string =>
  [
    address.line1,
    address.city,
    [address.stateName, address.pincode].filter(Boolean).join(' '),
    address.countryName,
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
